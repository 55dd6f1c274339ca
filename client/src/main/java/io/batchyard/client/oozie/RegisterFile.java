package io.batchyard.client.oozie;

import io.batchyard.client.FileToRegister;
import java.time.Instant;
import java.time.LocalDateTime;
import java.time.OffsetDateTime;
import java.time.ZoneOffset;
import java.time.format.DateTimeFormatter;
import java.time.format.DateTimeParseException;
import java.util.Map;

/**
 * {@code RegisterFile --sub-process-id <step> --path <p> --file-size <bytes> [--file-hash <h>]
 * [--creation-timestamp <ts>] [--batch-id <id>] --server-id <id>}: records the file the previous node produced under
 * the run's target batch; outputs {@code batch-id} and {@code path}.
 */
public final class RegisterFile {

    private static final DateTimeFormatter BDRE_TIME = DateTimeFormatter.ofPattern("yyyy-MM-dd HH:mm:ss[.SSS]");

    private RegisterFile() {
    }

    public static void main(String[] args) {
        OozieAction.main("RegisterFile", args, RegisterFile::call);
    }

    /** The main without exiting: 0 or the exit status (see {@link OozieAction}). */
    public static int run(String[] args) {
        return OozieAction.run("RegisterFile", args, RegisterFile::call, System.err);
    }

    static Map<String, String> call(Args a, io.batchyard.client.BatchyardClient client) {
        var stored = client.registerFile(new FileToRegister(a.optionalLong("sub-process-id"),
                a.requiredLong("server-id"), a.required("path"), a.requiredLong("file-size"), a.optional("file-hash"),
                creationTs(a.optional("creation-timestamp")), a.optionalLong("batch-id")));
        return Map.of("batch-id", String.valueOf(stored.batchId()), "path", stored.path());
    }

    /**
     * The creation time as ISO-8601 with an offset. ETL programs report it as epoch milliseconds, BDRE's
     * {@code yyyy-MM-dd HH:mm:ss} or ISO-8601; a time without an offset is taken as UTC.
     */
    static String creationTs(String v) {
        if (v == null) {
            return null;
        }
        if (v.chars().allMatch(Character::isDigit)) {
            return Instant.ofEpochMilli(Long.parseLong(v)).atOffset(ZoneOffset.UTC).toString();
        }
        try {
            return OffsetDateTime.parse(v).toString();
        } catch (DateTimeParseException notOffset) {
            try {
                return LocalDateTime.parse(v.replace(' ', 'T')).atOffset(ZoneOffset.UTC).toString();
            } catch (DateTimeParseException notIso) {
                try {
                    return LocalDateTime.parse(v, BDRE_TIME).atOffset(ZoneOffset.UTC).toString();
                } catch (DateTimeParseException e) {
                    throw new IllegalArgumentException("--creation-timestamp '" + v + "' is not a time (epoch"
                            + " milliseconds, yyyy-MM-dd HH:mm:ss or ISO-8601)");
                }
            }
        }
    }
}
