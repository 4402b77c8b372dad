/** TUIO 1.1 output (`muster start --tuio host:port`): see README.md. */
export { attachTuioOutput, startTuioOutput, type PublishedStates, type TuioOutput, type TuioOutputOptions } from './tuioOutput.ts';
export { formatTuioTarget, parseTuioTarget, type TuioTarget } from './tuioTarget.ts';
export { createTuioFrames, DEFAULT_MAX_PACKET_BYTES, TUIO_OBJECT_ADDRESS, type TuioFrames } from './tuioFrames.ts';
export { toTuioPose, tuioAngle, type TableSizeIn, type TuioPose } from './tuioMapping.ts';
