/**
 * Rolling and reading the dice a resolution asks for (`DiceRequest`): the service's seeded roller and the
 * check of dice the players rolled themselves, in one place for every rule set.
 */
import type { Rng } from '../../dice/rng.ts';
import type { DiceFaces, DiceRequest, ReadRoll } from './resolution.ts';

/** Rolls every request with the seeded roller: `count` faces of 1..`sides` per request id. */
export function rollRequestedDice(requests: readonly DiceRequest[], rng: Rng): DiceFaces {
  const faces: Record<string, number[]> = {};
  for (const request of requests) {
    const rolled: number[] = [];
    for (let i = 0; i < request.count; i++) rolled.push(1 + rng.nextInt(request.sides));
    faces[request.id] = rolled;
  }
  return faces;
}

/**
 * Problems with faces given for these requests, one sentence each (empty when they fit): a missing or
 * unknown group, the wrong number of dice, a face that is not a whole number on the die.
 */
export function diceFacesProblems(requests: readonly DiceRequest[], faces: DiceFaces): string[] {
  const problems: string[] = [];
  const ids = new Set(requests.map((r) => r.id));
  for (const id of Object.keys(faces)) {
    if (!ids.has(id)) problems.push(`dice "${id}" were not asked for (this roll needs: ${[...ids].join(', ') || 'no dice'})`);
  }
  for (const request of requests) {
    const given = faces[request.id];
    if (!Array.isArray(given)) {
      problems.push(`dice "${request.id}" (${request.label}) are missing: give ${request.count} d${request.sides}`);
      continue;
    }
    if (given.length !== request.count) {
      problems.push(`dice "${request.id}" (${request.label}): ${given.length} given, ${request.count} d${request.sides} needed`);
    }
    for (const face of given) {
      if (!Number.isInteger(face) || face < 1 || face > request.sides) {
        problems.push(`dice "${request.id}": ${JSON.stringify(face)} is not a face of a d${request.sides} (1..${request.sides})`);
        break;
      }
    }
  }
  return problems;
}

/** What one request's faces read as (see `ReadRoll.value`). Faces must already fit the request. */
export function readRoll(request: DiceRequest, faces: readonly number[]): ReadRoll {
  let value: number;
  switch (request.reading) {
    case 'hits':
      value = faces.filter((f) => f >= (request.hitOn ?? 4)).length;
      break;
    case 'under':
      value = faces.filter((f) => f <= (request.target ?? 0)).length;
      break;
    case 'total':
      value = faces.reduce((sum, f) => sum + f, 0) + (request.modifier ?? 0);
      break;
    case 'each':
      value = faces.reduce((sum, f) => sum + f, 0) + (faces.length === 1 ? (request.modifier ?? 0) : 0);
      break;
  }
  return { request, faces: [...faces], value };
}

/** Every request read with its faces, in request order. */
export function readRolls(requests: readonly DiceRequest[], faces: DiceFaces): ReadRoll[] {
  return requests.map((request) => readRoll(request, faces[request.id] ?? []));
}
