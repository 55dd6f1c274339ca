package io.batchyard.schemas;

import java.io.IOException;
import java.io.InputStream;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.Collections;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;

/**
 * The contract's released schemas ({@code src/main/avro-released/<version>/}, on the classpath under
 * {@code avro-released/}, listed in its {@code index.txt}). Decoders use them to read records that producers built
 * from a released version wrote: the record is resolved to today's class, a field added since taking its default.
 */
public final class ReleasedSchemas {

    private static final String ROOT = "avro-released/";
    private static final Map<String, Map<String, Schema>> BY_VERSION = load();

    private ReleasedSchemas() {
    }

    /** Every released version's top-level schemas by full name. */
    public static Map<String, Map<String, Schema>> byVersion() {
        return BY_VERSION;
    }

    /** The released writer schemas of the type named {@code fullName}, one per version that had it. */
    public static List<Schema> of(String fullName) {
        List<Schema> schemas = new ArrayList<>();
        BY_VERSION.values().forEach(version -> {
            Schema schema = version.get(fullName);
            if (schema != null) {
                schemas.add(schema);
            }
        });
        return schemas;
    }

    /**
     * Parses one version's schema texts (file name to text). Schemas name each other by full name in any file
     * order, so a text that names a type not yet known is retried once more types are known; each attempt gets a
     * fresh parser seeded with the known types, because a failed parse may leave a half-defined record behind.
     */
    public static Map<String, Schema> parse(Map<String, String> texts) {
        Map<String, String> pending = new TreeMap<>(texts);
        Map<String, Schema> known = new LinkedHashMap<>();
        Map<String, Schema> topLevel = new TreeMap<>();
        while (!pending.isEmpty()) {
            Map<String, String> failures = new LinkedHashMap<>();
            int before = pending.size();
            for (Map.Entry<String, String> file : List.copyOf(pending.entrySet())) {
                Schema.Parser parser = new Schema.Parser();
                parser.addTypes(known.values());
                try {
                    Schema schema = parser.parse(file.getValue());
                    topLevel.put(schema.getFullName(), schema);
                    known.putAll(parser.getTypes());
                    pending.remove(file.getKey());
                } catch (AvroRuntimeException e) {
                    // Avro reports a name it does not know yet as AvroTypeException; other errors stay in the report.
                    failures.put(file.getKey(), e.getMessage());
                }
            }
            if (pending.size() == before) {
                throw new IllegalStateException("cannot parse schemas: " + failures);
            }
        }
        return topLevel;
    }

    private static Map<String, Map<String, Schema>> load() {
        Map<String, Map<String, String>> texts = new TreeMap<>();
        String index = read(ROOT + "index.txt");
        for (String line : index.split("\n")) {
            String path = line.strip();
            if (!path.isEmpty()) {
                String version = path.substring(0, path.indexOf('/'));
                texts.computeIfAbsent(version, v -> new TreeMap<>()).put(path, read(ROOT + path));
            }
        }
        Map<String, Map<String, Schema>> versions = new TreeMap<>();
        texts.forEach((version, files) -> versions.put(version, Collections.unmodifiableMap(parse(files))));
        return Collections.unmodifiableMap(versions);
    }

    private static String read(String resource) {
        try (InputStream in = ReleasedSchemas.class.getClassLoader().getResourceAsStream(resource)) {
            if (in == null) {
                throw new IllegalStateException(resource + " is missing from the contract jar");
            }
            return new String(in.readAllBytes(), StandardCharsets.UTF_8);
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }
}
