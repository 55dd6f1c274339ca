'use strict';
// The contract's schemas, read from the repository's .avsc files (schemas/contract/src/main/avro), with the shared
// types they name written inline: the registry keeps one self-contained schema per subject, as the Java services
// register them.
const fs = require('fs');
const path = require('path');

const AVRO = process.env.BATCHYARD_AVRO_DIR || path.join(__dirname, '..', '..', 'schemas', 'contract', 'src', 'main', 'avro');

function read(relative) {
  return JSON.parse(fs.readFileSync(path.join(AVRO, relative), 'utf8'));
}

const SHARED = {
  'io.batchyard.events.EventHeader': read('common/EventHeader.avsc'),
  'io.batchyard.events.LifecycleCommandType': read('common/LifecycleCommandType.avsc'),
  'io.batchyard.events.ProcessDefinition': read('common/ProcessDefinition.avsc'),
};

// Replaces the first mention of each shared type by its definition (Avro allows a name only after its definition).
function inline(node, defined) {
  if (typeof node === 'string') {
    if (SHARED[node] && !defined.has(node)) {
      defined.add(node);
      return inline(SHARED[node], defined);
    }
    return node;
  }
  if (Array.isArray(node)) return node.map((n) => inline(n, defined));
  if (node && typeof node === 'object') {
    const out = {};
    for (const [k, v] of Object.entries(node)) out[k] = k === 'type' || k === 'items' || k === 'fields' ? inline(v, defined) : v;
    return out;
  }
  return node;
}

/** The self-contained schema of an event, e.g. schema('execution/LifecycleCommand.avsc'). */
function schema(relative) {
  return inline(read(relative), new Set());
}

/** The subject a record of this schema is kept under on this topic: <topic>-<full record name>. */
function subject(topic, avro) {
  return `${topic}-${avro.namespace}.${avro.name}`;
}

module.exports = { schema, subject };
