package io.batchyard.cli.bdre;

import java.util.ArrayList;
import java.util.Collections;
import java.util.EnumMap;
import java.util.List;
import java.util.Map;

/**
 * What an import did (or, in a dry run, would do) to each object, and where each BDRE id went. Its text carries
 * names, ids and the names of changed fields, never a value: no credential can reach it.
 */
public final class Report {

    public enum Kind {
        CREATE("create"), CHANGE("change"), NO_CHANGE("no change"), REFUSE("refuse"), SKIP("skip");

        private final String word;

        Kind(String word) {
            this.word = word;
        }

        public String word() {
            return word;
        }
    }

    /** One object: what happens to it and why ({@code detail} lists changed fields, or the refusal's reason). */
    public record Line(Kind kind, String object, String detail) {
        public String text() {
            return kind.word() + " " + object + (detail == null || detail.isEmpty() ? "" : ": " + detail);
        }
    }

    /** A BDRE id and the registry id it became; {@code batchyardId} null where a dry run would create it. */
    public record Mapped(String what, long bdreId, Long batchyardId, String note) {
        public String text() {
            return "BDRE " + what + " " + bdreId + " -> " + (batchyardId == null ? "(new)" : batchyardId)
                    + (note == null ? "" : " (" + note + ")");
        }
    }

    private final boolean dryRun;
    private final List<Line> lines = new ArrayList<>();
    private final List<Mapped> mapping = new ArrayList<>();

    public Report(boolean dryRun) {
        this.dryRun = dryRun;
    }

    public boolean dryRun() {
        return dryRun;
    }

    void add(Kind kind, String object, String detail) {
        lines.add(new Line(kind, object, detail));
    }

    void map(String what, long bdreId, Long batchyardId, String note) {
        mapping.add(new Mapped(what, bdreId, batchyardId, note));
    }

    public List<Line> lines() {
        return Collections.unmodifiableList(lines);
    }

    public List<Mapped> mapping() {
        return Collections.unmodifiableList(mapping);
    }

    public Map<Kind, Integer> counts() {
        Map<Kind, Integer> counts = new EnumMap<>(Kind.class);
        for (Kind k : Kind.values()) {
            counts.put(k, 0);
        }
        lines.forEach(l -> counts.merge(l.kind(), 1, Integer::sum));
        return counts;
    }

    public boolean refusedAny() {
        return counts().get(Kind.REFUSE) > 0;
    }

    /** True when nothing was (or would be) created or changed. */
    public boolean unchanged() {
        Map<Kind, Integer> c = counts();
        return c.get(Kind.CREATE) == 0 && c.get(Kind.CHANGE) == 0;
    }

    public String summary() {
        Map<Kind, Integer> c = counts();
        return (dryRun ? "dry run, nothing written: " + c.get(Kind.CREATE) + " to create, " + c.get(Kind.CHANGE)
                + " to change, " : c.get(Kind.CREATE) + " created, " + c.get(Kind.CHANGE) + " changed, ")
                + c.get(Kind.NO_CHANGE) + " without change, " + c.get(Kind.REFUSE) + " refused, " + c.get(Kind.SKIP)
                + " skipped";
    }
}
