/**
 * Child process of `broker.bench.ts`: N MQTT.js viewers of one table on a broker, subscribed as the views
 * are (status, log and delta at QoS 1; the snapshot until the first one arrives). Counts messages and
 * bytes only (no JSON parsing: the bench measures the table and the broker, not this process). Prints one
 * JSON line when all are subscribed and one a second after: `{ connected, withSnapshot, messages, bytes }`.
 *
 *   node --import tsx tests/bench/brokerViewers.ts <broker url> <table id> <viewers>
 */
import mqtt from 'mqtt';
import { mqttTopics } from '@muster/protocol';

const [url, tableId, countText] = process.argv.slice(2);
const count = Number(countText);
const topics = mqttTopics(tableId!);
let connected = 0;
let withSnapshot = 0;
let messages = 0;
let bytes = 0;

async function viewer(): Promise<void> {
  const client = await mqtt.connectAsync(url!, { reconnectPeriod: 1000, connectTimeout: 30_000 });
  connected++;
  let hasSnapshot = false;
  client.on('message', (topic, payload) => {
    messages++;
    bytes += payload.length + topic.length;
    if (!hasSnapshot && topic === topics.snapshot) {
      hasSnapshot = true;
      withSnapshot++;
      void client.unsubscribeAsync(topics.snapshot);
    }
  });
  await client.subscribeAsync({ [topics.status]: { qos: 1 }, [topics.log]: { qos: 1 }, [topics.delta]: { qos: 1 }, [topics.snapshot]: { qos: 1 } });
}

// Connect in batches so the broker's accept queue never overflows.
for (let i = 0; i < count; i += 50) await Promise.all(Array.from({ length: Math.min(50, count - i) }, () => viewer()));
const report = () => process.stdout.write(JSON.stringify({ connected, withSnapshot, messages, bytes }) + '\n');
report();
setInterval(report, 1000);
