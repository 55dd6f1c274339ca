package io.batchyard.lineage.access;

import java.util.List;

/**
 * What one caller may read here: everything (an administrator), or the processes of these applications. Lists and
 * graphs keep their rows to it in their own statements, so that pages, totals and walks agree with what is shown.
 */
public record Readable(boolean everything, List<Long> applications) {

    /** An administrator's reach, and a service's on an internal endpoint (the caller checks its own caller). */
    public static final Readable EVERYTHING = new Readable(true, List.of());

    public Readable {
        applications = List.copyOf(applications);
    }
}
