package io.batchyard.execution.runner.kubernetes;

import io.batchyard.execution.runner.OsCommand;
import java.nio.charset.StandardCharsets;

/**
 * The lines of a pod's log handed on so far. The log is read whole each time (the API has no offset to read from), so
 * only the lines past those already handed on go to the sink, each once; a last line without its newline waits for
 * the next read, or for the end. The pod's log mixes stdout and stderr: every line is {@code stdout}.
 */
final class PodLog {

    /** What is kept for the next script's PIPEINOUT, as a local command keeps it. */
    static final int KEEP_CHARS = 4 * 1024 * 1024;

    private final OsCommand.LineSink sink;
    private final StringBuilder kept = new StringBuilder();
    private int handedOn;

    PodLog(OsCommand.LineSink sink) {
        this.sink = sink;
    }

    /** Hands on the new complete lines of {@code log}; with {@code ended}, a last unterminated line too. */
    void read(String log, boolean ended) {
        if (log == null || log.isEmpty()) {
            return;
        }
        String[] lines = log.split("\r\n|\r|\n", -1);
        // the text after the last newline is a line still being written, or "" when the log ends with a newline
        int complete = lines.length - 1;
        if (ended && !lines[complete].isEmpty()) {
            complete++;
        }
        for (int i = handedOn; i < complete; i++) {
            String line = bounded(lines[i]);
            sink.line("stdout", line);
            if (kept.length() < KEEP_CHARS) {
                kept.append(lines[i], 0, Math.min(lines[i].length(), KEEP_CHARS - kept.length())).append('\n');
            }
        }
        handedOn = Math.max(handedOn, complete);
    }

    String stdout() {
        return kept.toString();
    }

    /** A line of at most {@link OsCommand#MAX_LINE_BYTES} bytes, saying how much was cut, as local commands' lines. */
    static String bounded(String line) {
        byte[] bytes = line.getBytes(StandardCharsets.UTF_8);
        if (bytes.length <= OsCommand.MAX_LINE_BYTES) {
            return line;
        }
        int end = OsCommand.MAX_LINE_BYTES;
        // never cut through a character: step back to the start of the one the cut goes through
        while (end > 0 && (bytes[end] & 0xC0) == 0x80) {
            end--;
        }
        return new String(bytes, 0, end, StandardCharsets.UTF_8) + " … [truncated " + (bytes.length - end) + " bytes]";
    }
}
