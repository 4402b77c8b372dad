/** Stacking of everything on the table, bottom first. Depth testing is off; this order is the only one. */
export const RENDER_ORDER = {
  tableStencil: -1,
  cloth: 0,
  /** The camera photo (operator's Camera toggle): over the cloth, under terrain. */
  backdrop: 0.5,
  elevation: 1,
  area: 2,
  road: 3,
  linear: 4,
  annotationFill: 10,
  /** Where stands stood before their last move: under the live stands, which cover a ghost they overlap. */
  ghost: 15,
  stand: 20,
  standFront: 21,
  selection: 22,
  annotationStroke: 30,
  measure: 40,
  draft: 50,
  /** Projector: black over every stand and tag, above all light. */
  standMask: 60,
} as const;
