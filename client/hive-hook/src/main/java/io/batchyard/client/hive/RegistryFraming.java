package io.batchyard.client.hive;

import com.fasterxml.jackson.core.io.JsonStringEncoder;
import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import io.batchyard.events.lineage.QueryRegistered;
import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import org.apache.avro.io.BinaryEncoder;
import org.apache.avro.io.EncoderFactory;
import org.apache.avro.specific.SpecificDatumWriter;

/**
 * Writes a QueryRegistered in the schema registry's wire format (magic byte 0, the schema's 4-byte id, the Avro body),
 * which lineage-service's deserializer reads. The schema id comes from the registry's Confluent-compatible API: the
 * contract's schema is registered under its topic-record subject, and an unchanged schema gets its existing id back.
 * This keeps the registry's own client library (and its HTTP stack) out of Hive.
 */
final class RegistryFraming {

    /** Avro already brings Jackson (shaded into the hook with it), so JSON is read and quoted by it, not by hand. */
    private static final ObjectMapper JSON = new ObjectMapper();
    private static final SpecificDatumWriter<QueryRegistered> WRITER = new SpecificDatumWriter<>(QueryRegistered.class);

    private final HttpClient http;
    private final URI subjectVersions;
    private volatile Integer schemaId;

    RegistryFraming(String registryUrl, String topic, Duration connectTimeout) {
        String base = registryUrl.endsWith("/") ? registryUrl.substring(0, registryUrl.length() - 1) : registryUrl;
        String subject = topic + "-" + QueryRegistered.getClassSchema().getFullName();
        this.subjectVersions = URI.create(base + "/apis/ccompat/v7/subjects/" + subject + "/versions");
        this.http = HttpClient.newBuilder().connectTimeout(connectTimeout).build();
    }

    /** The record's bytes; the first call per registry asks it for the schema id (bounded by {@code timeout}). */
    byte[] frame(QueryRegistered event, Duration timeout) throws IOException, InterruptedException {
        return frame(schemaId(timeout), event);
    }

    static byte[] frame(int schemaId, QueryRegistered event) {
        ByteArrayOutputStream out = new ByteArrayOutputStream(256 + event.getQueryText().length());
        out.write(0);
        out.write(schemaId >>> 24);
        out.write(schemaId >>> 16);
        out.write(schemaId >>> 8);
        out.write(schemaId);
        BinaryEncoder encoder = EncoderFactory.get().binaryEncoder(out, null);
        try {
            WRITER.write(event, encoder);
            encoder.flush();
        } catch (IOException e) {
            throw new UncheckedIOException(e); // a byte array stream does not fail
        }
        return out.toByteArray();
    }

    private int schemaId(Duration timeout) throws IOException, InterruptedException {
        Integer known = schemaId;
        if (known != null) {
            return known;
        }
        String body = "{\"schema\":" + jsonString(QueryRegistered.getClassSchema().toString()) + "}";
        HttpRequest request = HttpRequest.newBuilder(subjectVersions).timeout(timeout)
                .header("Content-Type", "application/vnd.schemaregistry.v1+json")
                .POST(HttpRequest.BodyPublishers.ofString(body, StandardCharsets.UTF_8)).build();
        HttpResponse<String> response = http.send(request, HttpResponse.BodyHandlers.ofString());
        JsonNode id = response.statusCode() / 100 == 2 ? JSON.readTree(response.body()).path("id") : null;
        if (id == null || !id.canConvertToInt()) {
            throw new IOException("the schema registry answered " + response.statusCode() + " to the schema's registration");
        }
        schemaId = id.intValue();
        return schemaId;
    }

    static String jsonString(String text) {
        return '"' + new String(JsonStringEncoder.getInstance().quoteAsString(text)) + '"';
    }
}
