'use strict';
// Runs a job from outside the JVM: sends INIT_JOB and then HALT_JOB for a registered process as LifecycleCommand
// records on batchyard.execution.commands, in the schema registry's wire format, with the caller's bearer token.
//
//   BATCHYARD_TOKEN=<access token> node produce.js <processId> [batchMarking]
//
// Settings (environment): KAFKA_BOOTSTRAP (127.0.0.1:9092), SCHEMA_REGISTRY_URL (http://127.0.0.1:8085, the
// registry's base URL; its Confluent-compatible API is used), BATCHYARD_TOKEN (an operator's token; required),
// TRACEPARENT (optional W3C traceparent: the events the commands lead to are published in that trace).
const crypto = require('crypto');
const { Kafka, logLevel } = require('kafkajs');
const { SchemaRegistry, SchemaType } = require('@kafkajs/confluent-schema-registry');
const { schema, subject } = require('./contract');

const TOPIC = 'batchyard.execution.commands';

async function main() {
  const [processIdArg, batchMarking] = process.argv.slice(2);
  const processId = Number(processIdArg);
  if (!Number.isSafeInteger(processId) || processId <= 0) {
    console.error('usage: BATCHYARD_TOKEN=<token> node produce.js <processId> [batchMarking]');
    process.exit(2);
  }
  const token = process.env.BATCHYARD_TOKEN;
  if (!token) {
    console.error('BATCHYARD_TOKEN is required: commands without an identity are refused');
    process.exit(2);
  }
  const registryUrl = (process.env.SCHEMA_REGISTRY_URL || 'http://127.0.0.1:8085').replace(/\/$/, '');
  const registry = new SchemaRegistry({ host: `${registryUrl}/apis/ccompat/v7` });
  const avro = schema('execution/LifecycleCommand.avsc');
  // register() insists that an existing subject's compatibility setting is the one it is given (BACKWARD unless told),
  // and a subject another producer created first (a Java producer's has NONE) has its own: so it is given the
  // subject's setting when there is one. A changed schema must still pass the subject's rule.
  const confluentSchema = { type: SchemaType.AVRO, schema: JSON.stringify(avro) };
  const subjectName = subject(TOPIC, avro);
  const level = await fetch(`${registryUrl}/apis/ccompat/v7/config/${encodeURIComponent(subjectName)}`)
    .then((r) => (r.ok ? r.json() : null)).then((c) => c && c.compatibilityLevel).catch(() => null);
  const { id } = await registry.register(confluentSchema,
    level ? { subject: subjectName, compatibility: level.toUpperCase() } : { subject: subjectName });

  const kafka = new Kafka({ clientId: 'batchyard-node-producer', brokers: (process.env.KAFKA_BOOTSTRAP || '127.0.0.1:9092').split(','),
    logLevel: logLevel.WARN });
  const producer = kafka.producer({ idempotent: true, maxInFlightRequests: 1 });
  await producer.connect();
  try {
    for (const command of ['INIT_JOB', 'HALT_JOB']) {
      const eventId = crypto.randomUUID();
      const value = await registry.encode(id, {
        header: { eventId, occurredAt: Date.now(), producer: 'node-producer', schemaVersion: 1,
          instanceExecId: null, correlationId: null, actor: null },
        command,
        processId,
        maxBatch: null,
        batchMarking: command === 'HALT_JOB' && batchMarking ? batchMarking : null,
      });
      // Same key for both: one partition, so INIT_JOB is applied before HALT_JOB.
      await producer.send({ topic: TOPIC, acks: -1, messages: [{ key: String(processId), value, headers: {
        authorization: `Bearer ${token}`,
        'event-type': 'LifecycleCommand',
        'event-id': Buffer.from(eventId.replace(/-/g, ''), 'hex'),
        ...(process.env.TRACEPARENT ? { traceparent: process.env.TRACEPARENT } : {}),
      } }] });
      console.log(`sent ${command} for process ${processId} (event ${eventId}, schema id ${id})`);
    }
  } finally {
    await producer.disconnect();
  }
}

main().catch((e) => {
  console.error(`node-producer: ${e.message}`);
  process.exit(1);
});
