package io.batchyard.registry.access;

import io.batchyard.api.access.Caller;
import io.batchyard.persistence.Params;
import io.vertx.core.json.JsonArray;
import java.util.List;

/**
 * The condition that keeps a list to the rows of applications its reader holds read permission on, for the
 * repositories of every feature: decided in the query, so that totals and pages agree. It only writes the condition;
 * the repository that lists runs it.
 */
public final class ReadFilter {

    private ReadFilter() {
    }

    /**
     * The condition on the row's application, named by {@code applicationIdColumn}; its parameters come from
     * {@link #params}. The permission type is the one {@link io.batchyard.api.access.ApplicationAccess#typeFor} gives:
     * the owner's if the reader owns the application, else the group's if the reader is in the owner group, else the
     * others'; read is its bit 4. Administrators read everything.
     */
    public static String condition(String applicationIdColumn) {
        return """
                (CAST(:readerAdmin AS boolean) OR EXISTS (
                  SELECT 1 FROM application readable WHERE readable.application_id = %s
                     AND ((CASE WHEN readable.owner_user = CAST(:reader AS text) THEN readable.owner_permission
                                WHEN readable.owner_group IN (SELECT jsonb_array_elements_text(
                                                           CAST(CAST(:readerGroups AS text) AS jsonb)))
                                     THEN readable.group_permission
                                ELSE readable.others_permission END) & 4) <> 0))""".formatted(applicationIdColumn);
    }

    /** The parameters of {@link #condition}. */
    public static Params params(Caller reader) {
        // Group names are free text: a JSON array carries any of them intact (cast to text first in the query: the
        // reactive driver would send a string bound straight to jsonb as a JSON string).
        return Params.of("readerAdmin", reader.admin()).and("reader", reader.name())
                .and("readerGroups", new JsonArray(List.copyOf(reader.groups())).encode());
    }
}
