package io.batchyard.queue.access;

import io.batchyard.persistence.Params;
import java.util.Set;
import java.util.stream.Collectors;

/**
 * The applications whose objects a caller may see: every one (an administrator, who also sees objects of
 * applications this service never learnt the permissions of) or exactly these. Lists are filtered by it in SQL, so
 * their pages and totals count only what the caller may read.
 */
public record Visibility(boolean all, Set<Long> applications) {

    private static final Visibility EVERYTHING = new Visibility(true, Set.of());

    public Visibility {
        applications = Set.copyOf(applications);
    }

    public static Visibility everything() {
        return EVERYTHING;
    }

    public static Visibility only(Set<Long> applications) {
        return new Visibility(false, applications);
    }

    /** Whether an object of {@code applicationId} (null: of no known application) is visible. */
    public boolean sees(Long applicationId) {
        return all || applicationId != null && applications.contains(applicationId);
    }

    /**
     * A condition for a repository's WHERE clause: the application id {@code expression} yields is one the caller may
     * see (parameters from {@link #params()}). A null application, one this service does not know, is seen only when
     * everything is.
     */
    public static String visible(String expression) {
        return "(CAST(:visible_all AS boolean) OR " + expression
                + " = ANY(CAST(string_to_array(:visible_apps, ',') AS bigint[])))";
    }

    /**
     * The application a process belongs to, for a process id {@code expression} of the outer query: its parent's for a
     * step, its own for a parent; null for a process the read model does not know.
     */
    public static String applicationOfProcess(String expression) {
        return "(SELECT COALESCE(par.application_id, d.application_id) FROM process_definition d"
                + " LEFT JOIN process_definition par ON par.process_id = d.parent_process_id"
                + " WHERE d.process_id = " + expression + ")";
    }

    /** The parameters of {@link #visible(String)}. */
    public Params params() {
        return Params.of("visible_all", all).and("visible_apps", csv());
    }

    /** The application ids as PostgreSQL's {@code string_to_array} reads them ("" for none). */
    private String csv() {
        return applications.stream().sorted().map(String::valueOf).collect(Collectors.joining(","));
    }
}
