// Publishing the live state through an MQTT broker. See README.md.
export { attachBrokerPublisher } from './brokerPublisher.ts';
export type { BrokerPublisher, BrokerPublisherOptions, BrokerPublisherStats, PublishedLive } from './brokerPublisher.ts';
export { parseBrokerUrl } from './brokerUrl.ts';
export type { BrokerUrl, BrokerProtocol } from './brokerUrl.ts';
export { resolveTableId, tableIdFromHostName } from './tableId.ts';
