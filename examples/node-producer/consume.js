'use strict';
// Prints the records of a topic as JSON, decoded through the schema registry alone (no Batchyard code): what any
// tool that speaks the Confluent-compatible registry API sees.
//
//   node consume.js <topic> [seconds]       reads from the beginning for <seconds> (default 10), one JSON line each
//
// Settings (environment): KAFKA_BOOTSTRAP (127.0.0.1:9092), SCHEMA_REGISTRY_URL (http://127.0.0.1:8085).
const { Kafka, logLevel } = require('kafkajs');
const { SchemaRegistry } = require('@kafkajs/confluent-schema-registry');

async function main() {
  const [topic, secondsArg] = process.argv.slice(2);
  if (!topic) {
    console.error('usage: node consume.js <topic> [seconds]');
    process.exit(2);
  }
  const registryUrl = (process.env.SCHEMA_REGISTRY_URL || 'http://127.0.0.1:8085').replace(/\/$/, '');
  const registry = new SchemaRegistry({ host: `${registryUrl}/apis/ccompat/v7` });
  const kafka = new Kafka({ clientId: 'batchyard-node-consumer', brokers: (process.env.KAFKA_BOOTSTRAP || '127.0.0.1:9092').split(','),
    logLevel: logLevel.WARN });
  const consumer = kafka.consumer({ groupId: `batchyard-node-consumer-${process.pid}-${Date.now()}` });
  await consumer.connect();
  await consumer.subscribe({ topic, fromBeginning: true });
  await consumer.run({
    eachMessage: async ({ message }) => {
      const type = message.headers['event-type'] ? message.headers['event-type'].toString() : '?';
      try {
        const event = await registry.decode(message.value);
        console.log(JSON.stringify({ type, key: message.key && message.key.toString(), event }));
      } catch (e) {
        // Records written before the registry (single-object encoding) are not in the registry's format.
        console.log(JSON.stringify({ type, key: message.key && message.key.toString(), undecodable: e.message }));
      }
    },
  });
  await new Promise((resolve) => setTimeout(resolve, 1000 * Number(secondsArg || 10)));
  await consumer.disconnect();
}

main().catch((e) => {
  console.error(`node-consumer: ${e.message}`);
  process.exit(1);
});
