package io.batchyard.schemas;

import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.ByteBuffer;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.message.BadHeaderException;
import org.apache.avro.message.BinaryMessageDecoder;
import org.apache.avro.message.BinaryMessageEncoder;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificRecord;

/**
 * Avro's single-object encoding ({@code C3 01}, 8-byte schema fingerprint, binary body), done by Avro's own message
 * encoder and decoder. It is the form in which the outbox stores an event until the relay publishes it (the relay
 * then writes it in the registry's wire format), and the form records had on the topics before the registry.
 * The fingerprint names the writer schema among today's and the released ones, so a row or record written by an
 * older release is still read.
 */
public final class EventCodec {

    private static final Map<Class<?>, BinaryMessageEncoder<SpecificRecord>> ENCODERS = new ConcurrentHashMap<>();
    private static final Map<Class<?>, BinaryMessageDecoder<SpecificRecord>> DECODERS = new ConcurrentHashMap<>();

    private EventCodec() {
    }

    public static byte[] encode(SpecificRecord event) {
        BinaryMessageEncoder<SpecificRecord> encoder = ENCODERS.computeIfAbsent(event.getClass(),
                type -> new BinaryMessageEncoder<>(modelFor(type), event.getSchema()));
        try {
            ByteBuffer buffer = encoder.encode(event);
            byte[] bytes = new byte[buffer.remaining()];
            buffer.get(bytes);
            return bytes;
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    /** Whether {@code bytes} begin as Avro's single-object encoding does ({@code C3 01}). */
    public static boolean isSingleObject(byte[] bytes) {
        return bytes != null && bytes.length > 10 && bytes[0] == (byte) 0xC3 && bytes[1] == (byte) 0x01;
    }

    public static <T extends SpecificRecord> T decode(byte[] bytes, Class<T> type) {
        BinaryMessageDecoder<SpecificRecord> decoder = DECODERS.computeIfAbsent(type, EventCodec::decoderFor);
        try {
            return type.cast(decoder.decode(bytes));
        } catch (BadHeaderException e) {
            throw new UnknownEventException(e.getMessage());
        } catch (IOException | RuntimeException e) {
            throw new UnknownEventException("cannot decode " + type.getSimpleName() + ": " + e.getMessage());
        }
    }

    /**
     * Reads today's records and those written with any released version of the type's schema, resolved to today's
     * class (a field added since then takes its default): producers built from an older release keep being read.
     */
    private static BinaryMessageDecoder<SpecificRecord> decoderFor(Class<?> type) {
        Schema current = SpecificData.get().getSchema(type);
        BinaryMessageDecoder<SpecificRecord> decoder = new BinaryMessageDecoder<>(modelFor(type), current);
        ReleasedSchemas.of(current.getFullName()).forEach(decoder::addSchema);
        return decoder;
    }

    /**
     * A model bound to the generated class's own class loader, with its logical-type conversions. The generated
     * class's shared model falls back to the thread context loader, which on a Kafka consumer thread inside a
     * Quarkus test is the wrong one (ClassCastException between loaders).
     */
    public static SpecificData modelFor(Class<?> type) {
        SpecificData model = new SpecificData(type.getClassLoader());
        SpecificData.getForClass(type).getConversions().forEach(model::addLogicalTypeConversion);
        return model;
    }

    public static final class UnknownEventException extends RuntimeException {
        public UnknownEventException(String message) {
            super(message);
        }
    }
}
