package io.batchyard.queue;

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

    /** The application ids as PostgreSQL's {@code string_to_array} reads them ("" for none). */
    String csv() {
        return applications.stream().sorted().map(String::valueOf).collect(Collectors.joining(","));
    }
}
