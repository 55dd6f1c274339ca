package io.batchyard.api.access;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.api.Roles;
import java.util.HashSet;
import java.util.List;
import java.util.Set;
import org.junit.jupiter.api.Test;

/** The table's own consistency; the services are held to it by their role matrices and the end-to-end matrix. */
class AccessPolicyTest {

    private static final Set<String> ROLES =
            Set.of(Roles.VIEWER, Roles.OPERATOR, Roles.DEVELOPER, Roles.ADMIN, Roles.SERVICE);

    @Test
    void everyServiceListsEachOperationOnceWithAKnownRole() {
        assertThat(AccessPolicy.services()).contains("registry-service", "execution-service", "queue-service",
                "lineage-service", "dashboard");
        for (String service : AccessPolicy.services()) {
            List<AccessPolicy.Rule> rules = AccessPolicy.of(service);
            Set<String> seen = new HashSet<>();
            for (AccessPolicy.Rule rule : rules) {
                assertThat(seen.add(rule.operation())).as(service + " " + rule.operation()).isTrue();
                assertThat(rule.operation()).matches("(GET|PUT|POST|PATCH|DELETE) /\\S*");
                assertThat(ROLES).contains(rule.role());
            }
        }
    }

    @Test
    void operationsOnAnotherTeamsObjectsNeedMoreThanTheRole() {
        assertThat(AccessPolicy.rule("queue-service", "POST /batches/{batchId}/enqueue"))
                .hasValueSatisfying(r -> assertThat(r.need()).isEqualTo(AccessPolicy.Need.EXECUTE));
        assertThat(AccessPolicy.rule("execution-service", "GET /runs/{ie}/log"))
                .hasValueSatisfying(r -> assertThat(r.need()).isEqualTo(AccessPolicy.Need.READ));
        assertThat(AccessPolicy.rule("registry-service", "POST /processes"))
                .hasValueSatisfying(r -> assertThat(r.need()).isEqualTo(AccessPolicy.Need.WRITE));
    }
}
