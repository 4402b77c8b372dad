// The wire protocol between the service and its views. See README.md.
export { PROTOCOL_VERSION, OLDEST_SUPPORTED_PROTOCOL_VERSION, isSupportedProtocolVersion, LIMITS } from './version.ts';
export type * from './messages.ts';
export { OPERATOR_MESSAGE_TYPES, isOperatorMessage } from './messages.ts';
export { parseClientMessage, validateClientMessage, checkRulesetChoice, parseServerMessage, validateTerrain, utf8Length, jsonDepthExceeds, parseClientJson } from './validate.ts';
export type { Parsed } from './validate.ts';
export { diffLiveState, applyDelta, diffList, applyList, jsonEqual } from './delta.ts';
