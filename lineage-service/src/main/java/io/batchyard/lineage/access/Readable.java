package io.batchyard.lineage.access;

import java.util.List;
import java.util.stream.Collectors;

/**
 * What one caller may read here: everything (an administrator), or the processes of these applications. Lists and
 * graphs keep their rows to it in their own statements, so that pages, totals and walks agree with what is shown.
 */
public record Readable(boolean everything, List<Long> applications) {

    static final Readable EVERYTHING = new Readable(true, List.of());

    public Readable {
        applications = List.copyOf(applications);
    }

    /** The applications as one text parameter ("1,7,12"; empty for none): a statement binds it the same way. */
    String applicationList() {
        return applications.stream().map(String::valueOf).collect(Collectors.joining(","));
    }
}
