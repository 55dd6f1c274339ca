package io.batchyard.schemas;

import java.security.SecureRandom;
import java.util.HexFormat;
import java.util.Locale;
import java.util.Optional;
import java.util.regex.Pattern;

/**
 * A W3C Trace Context {@code traceparent} value, {@code 00-<32 hex trace id>-<16 hex span id>-<2 hex flags>}: every
 * record carries one in the {@link RecordHeaders#TRACEPARENT} header, so that tracing tools follow one piece of work
 * from the call or command that started it through every event that follows, across services and Kafka hops.
 */
public record TraceParent(String traceId, String spanId, String flags) {

    private static final Pattern FORMAT = Pattern.compile("00-([0-9a-f]{32})-([0-9a-f]{16})-([0-9a-f]{2})");
    private static final String INVALID_TRACE = "0".repeat(32);
    private static final String INVALID_SPAN = "0".repeat(16);
    private static final SecureRandom RANDOM = new SecureRandom();

    /** Parses a header value; empty for anything that is not a valid version-00 traceparent (the spec says: ignore it). */
    public static Optional<TraceParent> parse(String value) {
        if (value == null) {
            return Optional.empty();
        }
        var m = FORMAT.matcher(value.strip().toLowerCase(Locale.ROOT));
        if (!m.matches() || m.group(1).equals(INVALID_TRACE) || m.group(2).equals(INVALID_SPAN)) {
            return Optional.empty();
        }
        return Optional.of(new TraceParent(m.group(1), m.group(2), m.group(3)));
    }

    /** The start of a new trace (sampled). */
    public static TraceParent root() {
        return new TraceParent(hex(16), hex(8), "01");
    }

    /** The next hop of the same trace: same trace id and flags, a span id of its own. */
    public TraceParent child() {
        return new TraceParent(traceId, hex(8), flags);
    }

    @Override
    public String toString() {
        return "00-" + traceId + "-" + spanId + "-" + flags;
    }

    private static String hex(int bytes) {
        byte[] b = new byte[bytes];
        do {
            RANDOM.nextBytes(b);
        } while (allZero(b));
        return HexFormat.of().formatHex(b);
    }

    private static boolean allZero(byte[] b) {
        for (byte x : b) {
            if (x != 0) {
                return false;
            }
        }
        return true;
    }
}
