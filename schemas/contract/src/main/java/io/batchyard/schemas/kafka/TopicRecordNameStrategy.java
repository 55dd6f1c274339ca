package io.batchyard.schemas.kafka;

import io.apicurio.registry.resolver.ParsedSchema;
import io.apicurio.registry.resolver.data.Record;
import io.apicurio.registry.resolver.strategy.ArtifactReference;
import io.apicurio.registry.resolver.strategy.ArtifactReferenceResolverStrategy;
import io.apicurio.registry.serde.data.SerdeRecord;
import org.apache.avro.Schema;

/**
 * Subject {@code <topic>-<record full name>} in the registry's default group, the topic-record naming that tools
 * built on the Confluent-compatible API expect: one topic carries several event types (the lifecycle topic carries
 * six), each with a subject, and so a version history, of its own. Apicurio's own topic-record strategy would put
 * the subject in a group named after the namespace, which the Confluent-compatible API does not list.
 */
public class TopicRecordNameStrategy implements ArtifactReferenceResolverStrategy<Schema, Object> {

    /** The subject under which {@code schema}'s versions are kept on {@code topic}. */
    public static String subject(String topic, Schema schema) {
        return topic + "-" + schema.getFullName();
    }

    @Override
    public ArtifactReference artifactReference(Record<Object> data, ParsedSchema<Schema> parsedSchema) {
        Schema schema = parsedSchema.getParsedSchema();
        if (schema == null || schema.getType() != Schema.Type.RECORD) {
            throw new IllegalStateException("a Batchyard event is an Avro record, not " + schema);
        }
        String topic = ((SerdeRecord<Object>) data).metadata().getTopic();
        return ArtifactReference.builder().artifactId(subject(topic, schema)).build();
    }
}
