// The wire protocol between the service and its views. See README.md.
export { PROTOCOL_VERSION, OLDEST_SUPPORTED_PROTOCOL_VERSION, isSupportedProtocolVersion, LIMITS } from './version.ts';
export type * from './messages.ts';
export { OPERATOR_MESSAGE_TYPES, isOperatorMessage } from './messages.ts';
export { parseClientMessage, validateClientMessage, checkRulesetChoice, parseServerMessage, validateTerrain, utf8Length, jsonDepthExceeds, parseClientJson } from './validate.ts';
export type { Parsed } from './validate.ts';
export { diffLiveState, applyDelta, diffList, applyList, jsonEqual } from './delta.ts';
export {
  MQTT_TOPIC_ROOT,
  MQTT_TOPIC_PARTS,
  MQTT_RETAINED_PARTS,
  MQTT_MAX_TABLE_ID_CHARS,
  MQTT_PART_MESSAGE_TYPE,
  tableIdProblem,
  mqttTopics,
  mqttAllTablesTopic,
  parseMqttTopic,
  gameStripOf,
  parseBrokerMessage,
} from './mqtt.ts';
export type { MqttTopicPart, MqttTopics, TableStatusMessage, HealthMessage, RulesetMessage, GameStripMessage, BrokerMessage } from './mqtt.ts';
