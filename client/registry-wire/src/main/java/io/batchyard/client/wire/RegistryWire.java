package io.batchyard.client.wire;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericDatumReader;
import org.apache.avro.generic.GenericRecord;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * The schema registry's wire format (magic byte 0, the schema's 4-byte id, the Avro body) both ways, over the
 * registry's Confluent-compatible API only: a written record's schema is registered under its topic-record subject
 * (an unchanged schema gets its existing id back); a read record's writer schema is fetched by its id, once, and the
 * record read as a generic record, so reading needs no generated class (a shaded jar's relocated classes would not
 * match the schemas' names anyway). This keeps the registry's own client library and its HTTP stack out of jobs and
 * out of Hive.
 *
 * <p>One implementation for {@code client/kafka} (commands written, answers read) and {@code client/hive-hook}
 * (queries written). Each shades this module into its own jar, relocated with the Avro and Jackson it is compiled
 * against there, so the two jars (or either and the services' libraries) never share a copy on one class path.
 */
public final class RegistryWire {

    /** Avro already brings Jackson (shaded along with it), so JSON is read and quoted by it, not by hand. */
    private static final ObjectMapper JSON = new ObjectMapper();

    private final HttpClient http;
    private final String base;
    private final Map<String, Integer> ids = new ConcurrentHashMap<>();
    private final Map<Integer, Schema> schemas = new ConcurrentHashMap<>();

    public RegistryWire(String registryUrl, Duration connectTimeout) {
        this.base = (registryUrl.endsWith("/") ? registryUrl.substring(0, registryUrl.length() - 1) : registryUrl)
                + "/apis/ccompat/v7";
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
    }

    /** The record's bytes; the first call per topic and record type registers its schema (bounded by timeout). */
    public <T extends SpecificRecord> byte[] frame(String topic, T record, Duration timeout)
            throws IOException, InterruptedException {
        Schema schema = record.getSchema();
        String subject = topic + "-" + schema.getFullName();
        Integer id = ids.get(subject);
        if (id == null) {
            id = register(subject, schema, timeout);
            ids.put(subject, id);
        }
        return frame(id, record);
    }

    /** The record's bytes under a known schema id. */
    public static <T extends SpecificRecord> byte[] frame(int schemaId, T record) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256);
        out.write(0);
        out.write(schemaId >>> 24);
        out.write(schemaId >>> 16);
        out.write(schemaId >>> 8);
        out.write(schemaId);
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        try {
            new SpecificDatumWriter<T>(record.getSchema()).write(record, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array stream does not fail
        }
        return out.toByteArray();
    }

    /** The record a value in the wire format holds, read with its writer schema; null for a value not in it. */
    public GenericRecord read(byte[] value, Duration timeout) throws IOException, InterruptedException {
        if (value == null || value.length < 5 || value[0] != 0) {
            return null;
        }
        int id = ByteBuffer.wrap(value, 1, 4).getInt();
        Schema schema = schemas.get(id);
        if (schema == null) {
            schema = fetch(id, timeout);
            schemas.put(id, schema);
        }
        return new GenericDatumReader<GenericRecord>(schema)
                .read(null, DecoderFactory.get().binaryDecoder(value, 5, value.length - 5, null));
    }

    private int register(String subject, Schema schema, Duration timeout) throws IOException, InterruptedException {
        String body = "{\"schema\":" + jsonString(schema.toString()) + "}";
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/subjects/" + subject + "/versions"))
                .timeout(timeout).header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
        JsonNode id = answer(request, "the registration of " + subject).path("id");
        if (!id.canConvertToInt()) {
            throw new IOException("the schema registry answered no id to the registration of " + subject);
        }
        return id.intValue();
    }

    private Schema fetch(int id, Duration timeout) throws IOException, InterruptedException {
        HttpRequest request = HttpRequest.newBuilder(URI.create(base + "/schemas/ids/" + id)).timeout(timeout).GET()
                .build();
        JsonNode schema = answer(request, "the look-up of schema " + id).path("schema");
        if (!schema.isTextual()) {
            throw new IOException("the schema registry answered no schema for id " + id);
        }
        return new Schema.Parser().parse(schema.textValue());
    }

    private JsonNode answer(HttpRequest request, String what) throws IOException, InterruptedException {
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        if (response.statusCode() / 100 != 2) {
            throw new IOException("the schema registry answered " + response.statusCode() + " to " + what);
        }
        return JSON.readTree(response.body());
    }

    static String jsonString(String text) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + '"';
    }
}
