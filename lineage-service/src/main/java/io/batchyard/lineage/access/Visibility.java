package io.batchyard.lineage.access;

import io.batchyard.persistence.Params;

/**
 * The condition "a caller may read this process" as a fragment of another feature's statement, so that lists, pages,
 * totals and graph walks keep to what the caller may read in the statement that reads them. A process belongs to the
 * application the process read model ({@code process_definition}, steps under their parent's) records for it; a
 * process the read model does not know belongs to no application a caller may read.
 */
public final class Visibility {

    private Visibility() {
    }

    /**
     * The condition "the process in {@code processColumn} is readable", with the parameters of {@link #params}. The
     * applications travel as one {@code bigint[]} parameter (bound as a {@code Long[]}; a list would be expanded into
     * an IN list), so that no application at all is an empty array and not a syntax error.
     */
    public static String readable(String processColumn) {
        return "(CAST(:readAll AS boolean) OR " + processColumn + " IN (SELECT d.process_id FROM process_definition d"
                + " WHERE d.application_id = ANY(CAST(:readApps AS bigint[]))))";
    }

    /** The parameters of {@link #readable} for {@code reader}. */
    public static Params params(Readable reader) {
        return Params.of("readAll", reader.everything()).and("readApps", reader.applications().toArray(Long[]::new));
    }
}
