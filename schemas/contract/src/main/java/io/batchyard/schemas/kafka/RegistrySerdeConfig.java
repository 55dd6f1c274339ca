package io.batchyard.schemas.kafka;

import io.apicurio.registry.resolver.config.SchemaResolverConfig;
import io.apicurio.registry.serde.avro.AvroSerdeConfig;
import io.apicurio.registry.serde.config.SerdeConfig;
import io.apicurio.registry.serde.kafka.config.KafkaSerdeConfig;
import java.util.HashMap;
import java.util.Map;

/**
 * The settings every Batchyard serde runs with, on top of what the application configures (its own values win).
 *
 * <p>Wire format: magic byte {@code 0}, the schema's 4-byte content id, the Avro binary body; the id lives in the
 * value, not in headers, so Kafka tools that read from a Confluent-compatible registry API decode it. Producers
 * register a schema the first time they write it (the registry's compatibility rule accepts or refuses it), whole:
 * nested records inline, no schema references.
 */
public final class RegistrySerdeConfig {

    /** The Apicurio REST API v3 of the registry, e.g. {@code http://127.0.0.1:8085/apis/registry/v3}. */
    public static final String REGISTRY_URL = SchemaResolverConfig.REGISTRY_URL;

    private RegistrySerdeConfig() {
    }

    /** The registry URL as this serde's callers state it: the base URL with the API path appended. */
    public static String apiUrl(String baseUrl) {
        String base = baseUrl.endsWith("/") ? baseUrl.substring(0, baseUrl.length() - 1) : baseUrl;
        return base.endsWith("/apis/registry/v3") ? base : base + "/apis/registry/v3";
    }

    /** Everything a serde needs to talk to the registry at {@code baseUrl}. */
    public static Map<String, Object> forRegistry(String baseUrl) {
        Map<String, Object> config = new HashMap<>();
        config.put(REGISTRY_URL, apiUrl(baseUrl));
        return withDefaults(config);
    }

    static Map<String, Object> withDefaults(Map<String, ?> configured) {
        Map<String, Object> config = new HashMap<>(configured);
        // Our own classes as objects, not names: the serde would load a name through its own class loader, which
        // inside a Quarkus application may hold another copy of the serde's interfaces than the one they implement.
        config.putIfAbsent(SchemaResolverConfig.ARTIFACT_RESOLVER_STRATEGY, new TopicRecordNameStrategy());
        config.putIfAbsent(SchemaResolverConfig.AUTO_REGISTER_ARTIFACT, "true");
        // One self-contained schema per subject: nested records (the event header) are written inline instead of
        // as references to subjects of their own, which not every tool resolves.
        config.putIfAbsent(SchemaResolverConfig.DEREFERENCE_SCHEMA, "true");
        config.putIfAbsent(SerdeConfig.USE_ID, "contentId");
        config.putIfAbsent(KafkaSerdeConfig.ENABLE_HEADERS, "false");
        config.putIfAbsent(AvroSerdeConfig.AVRO_DATUM_PROVIDER, CatalogDatumProvider.class);
        config.putIfAbsent(AvroSerdeConfig.USE_SPECIFIC_AVRO_READER, "true");
        return config;
    }
}
