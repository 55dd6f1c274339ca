// Validates CloudNativePG resources the way an API server with strict field validation would, with the models of
// @kubernetes-models/cloudnative-pg (version pinned in package.json). Run by the deploy/k8s tests (CloudNativePg.java):
//
//   node validate.js [FILE]     FILE (or standard input): a JSON array of resources, e.g. rendered Cluster/Database
//
// Prints one line per resource, in input order: "ok <apiVersion> <kind> <name>" or
// "FAIL <apiVersion> <kind> <name>: <path>: <problem>; <path>: <problem>…" (paths are JSON pointers into the
// resource, e.g. /spec/instance: unknown field). Exits 0 when every resource is valid, 1 when one is not, 2 when the
// input cannot be read.
//
// Each resource goes through its model's own validate() (the package's generated validators: types, enums, patterns,
// required fields). Those validators leave objects open: a field the schema does not declare passes. The API server's
// strict field validation refuses it, so this script closes them, by one rule (the one StrictValidator used to apply
// to CloudNativePG's CRD schema before this package replaced it):
//
//   an object whose schema lists properties, and neither declares additionalProperties nor preserves unknown fields,
//   accepts no other key.
//
// The package ships its schemas compiled to JavaScript (_schemas/*.js, Ajv standalone code), not as JSON, so the rule
// cannot be applied by rewriting a schema. It is applied by watching the compiled validator instead: every object of
// the resource is wrapped in a Proxy that notes which keys the validator looks up and whether it lists the object's
// keys. Ajv's code for `properties` looks up each declared property by name; for `additionalProperties` and
// `patternProperties` (maps, such as labels or PostgreSQL parameters) it lists the keys; for an object without
// properties (free-form) it does neither. So: an object in which the validator looked up at least one key and never
// listed the keys is closed, and each of its keys that was never looked up is an unknown field. Where watching could
// differ from reading the schema, it errs toward refusing: a declared property whose schema accepts anything, or an
// object with properties and additionalProperties: true, is never looked up, so its field would be reported. It would
// err the other way only for objects with oneOf/anyOf branches or patternProperties beside properties; the package's
// validators for CloudNativePG and the Kubernetes types it embeds have none (oneOf only in Quantity and IntOrString,
// which are not objects).
import fs from 'node:fs';

const PACKAGE = '@kubernetes-models/cloudnative-pg';

function pointer(path, key) {
  return `${path}/${String(key).replaceAll('~', '~0').replaceAll('/', '~1')}`;
}

/**
 * Replaces every object below `value` (in place) by a Proxy recording the keys looked up and whether the keys were
 * listed; returns the wrapped value and adds one entry per object to `objects`.
 */
function track(value, path, objects) {
  if (Array.isArray(value)) {
    value.forEach((item, i) => { value[i] = track(item, `${path}/${i}`, objects); });
    return value;
  }
  if (value === null || typeof value !== 'object') {
    return value;
  }
  for (const key of Object.keys(value)) {
    value[key] = track(value[key], pointer(path, key), objects);
  }
  const seen = { path, target: value, lookedUp: new Set(), listed: false };
  objects.push(seen);
  const note = (key) => { if (typeof key === 'string') seen.lookedUp.add(key); };
  return new Proxy(value, {
    get(target, key, receiver) { note(key); return Reflect.get(target, key, receiver); },
    has(target, key) { note(key); return Reflect.has(target, key); },
    getOwnPropertyDescriptor(target, key) { note(key); return Reflect.getOwnPropertyDescriptor(target, key); },
    ownKeys(target) { seen.listed = true; return Reflect.ownKeys(target); },
  });
}

function unknownFields(objects) {
  const problems = [];
  for (const o of objects) {
    if (o.listed || o.lookedUp.size === 0) {
      continue;
    }
    for (const key of Object.keys(o.target)) {
      if (!o.lookedUp.has(key)) {
        problems.push(`${pointer(o.path, key)}: unknown field`);
      }
    }
  }
  return problems;
}

function describe(error) {
  const where = error.instancePath || '/';
  const params = error.params ?? {};
  const detail = params.allowedValues ? ` (${params.allowedValues.map((v) => JSON.stringify(v)).join(', ')})` : '';
  return `${where}: ${error.message ?? error.keyword}${detail}`;
}

/** The package's model class for apiVersion/kind, or null. */
async function model(apiVersion, kind) {
  if (!/^[a-z0-9.-]+\/v[0-9a-z]+$/.test(apiVersion ?? '') || !/^[A-Z][A-Za-z0-9]*$/.test(kind ?? '')) {
    return null;
  }
  let module;
  try {
    module = await import(`${PACKAGE}/${apiVersion}/${kind}`);
  } catch (e) {
    if (e.code === 'ERR_MODULE_NOT_FOUND' || e.code === 'ERR_PACKAGE_PATH_NOT_EXPORTED') {
      return null;
    }
    throw e;
  }
  const Model = module[kind];
  return Model && Model.apiVersion === apiVersion && Model.kind === kind ? Model : null;
}

async function problems(resource) {
  if (resource === null || typeof resource !== 'object' || Array.isArray(resource)) {
    return ['/: not an object'];
  }
  const Model = await model(resource.apiVersion, resource.kind);
  if (!Model) {
    return [`/: no model for ${resource.apiVersion}/${resource.kind} in ${PACKAGE}`];
  }
  const objects = [];
  const tracked = track(new Model(structuredClone(resource)), '', objects);
  const found = [];
  try {
    tracked.validate();
  } catch (e) {
    if (!Array.isArray(e.errors)) {
      throw e;
    }
    found.push(...e.errors.map(describe));
  }
  return [...found, ...unknownFields(objects)];
}

async function main() {
  let resources;
  try {
    resources = JSON.parse(fs.readFileSync(process.argv[2] ?? 0, 'utf8'));
  } catch (e) {
    console.error(`cannot read the resources: ${e.message}`);
    return 2;
  }
  if (!Array.isArray(resources)) {
    console.error('the input must be a JSON array of resources');
    return 2;
  }
  let failed = 0;
  for (const resource of resources) {
    const name = `${resource?.apiVersion} ${resource?.kind} ${resource?.metadata?.name}`;
    const found = await problems(resource);
    if (found.length === 0) {
      console.log(`ok ${name}`);
    } else {
      failed++;
      console.log(`FAIL ${name}: ${found.join('; ')}`);
    }
  }
  return failed === 0 ? 0 : 1;
}

process.exitCode = await main();
