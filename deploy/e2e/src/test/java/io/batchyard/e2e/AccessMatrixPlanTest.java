package io.batchyard.e2e;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.api.access.AccessPolicy;
import io.batchyard.api.access.AccessPolicy.Need;
import io.batchyard.api.access.AccessPolicy.Rule;
import io.batchyard.e2e.AccessMatrix.Outcome;
import io.batchyard.e2e.AccessMatrix.Plan;
import io.batchyard.e2e.AccessMatrix.Who;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import org.junit.jupiter.api.Test;

/**
 * The matrix's planner and expectations on their own, without services: what {@link AccessMatrixEndToEndTest}
 * relies on to fail for an operation without a row and to owe each caller the policy's answer.
 */
class AccessMatrixPlanTest {

    /** Every service's operations as the policy names them, standing in for the live documents. */
    private static Map<String, List<String>> documented() {
        Map<String, List<String>> live = new LinkedHashMap<>();
        for (String service : AccessPolicy.services()) {
            live.put(service, AccessPolicy.of(service).stream().map(Rule::operation).toList());
        }
        return live;
    }

    @Test
    void everyRowOfThePolicyIsPlannedAndNothingIsMissing() {
        Plan plan = AccessMatrix.plan(documented());
        assertThat(plan.withoutRule()).isEmpty();
        assertThat(plan.withoutOperation()).isEmpty();
        assertThat(plan.entries()).hasSize(AccessPolicy.services().stream().mapToInt(s -> AccessPolicy.of(s).size())
                .sum());
    }

    @Test
    void aRowRemovedFromTheRulesLeavesItsOperationReported() {
        for (String service : AccessPolicy.services()) {
            for (Rule removed : AccessPolicy.of(service)) {
                Plan plan = AccessMatrix.plan(documented(), s -> AccessPolicy.of(s).stream()
                        .filter(r -> r != removed).toList());
                assertThat(plan.withoutRule()).containsExactly(service + ": " + removed.operation());
            }
        }
    }

    @Test
    void aNewLiveOperationWithoutARowIsReportedAndARowWithoutAnOperationToo() {
        Map<String, List<String>> live = documented();
        List<String> queue = new ArrayList<>(live.get("queue-service"));
        queue.add("DELETE /batches/{batchId}");
        queue.remove("GET /queue");
        live.put("queue-service", queue);
        Plan plan = AccessMatrix.plan(live);
        assertThat(plan.withoutRule()).containsExactly("queue-service: DELETE /batches/{batchId}");
        assertThat(plan.withoutOperation()).containsExactly("queue-service: GET /queue");
    }

    @Test
    void eachCallerIsOwedWhatThePolicyGivesIt() {
        Map<String, List<Outcome>> byNeed = new LinkedHashMap<>();
        for (Need need : Need.values()) {
            String role = need == Need.EXECUTE ? "operator" : need == Need.WRITE ? "developer" : "viewer";
            List<Outcome> outcomes = new ArrayList<>();
            for (Who who : AccessFixtures.CALLERS) {
                outcomes.add(AccessMatrix.expect(new Rule("GET /x", role, need), who, AccessFixtures.ACCESS));
            }
            byNeed.put(need + " " + role, outcomes);
        }
        // The callers in AccessFixtures.CALLERS' order: anonymous; viewer, operator, developer without read; with read
        // only (the group); the owner as operator and as developer; admin; service.
        Outcome u = Outcome.UNAUTHENTICATED;
        Outcome r = Outcome.ROLE_REFUSED;
        Outcome h = Outcome.HIDDEN;
        Outcome p = Outcome.PERMISSION_REFUSED;
        Outcome a = Outcome.ALLOWED;
        Outcome w = Outcome.LISTED_WITH_OBJECT;
        Outcome o = Outcome.LISTED_WITHOUT_OBJECT;
        assertThat(byNeed).containsEntry("NONE viewer", List.of(u, a, a, a, a, a, a, a, a, a, r))
                .containsEntry("FILTERED viewer", List.of(u, o, w, o, w, w, o, w, w, w, r))
                .containsEntry("READ viewer", List.of(u, h, a, h, a, a, h, a, a, a, r))
                .containsEntry("WRITE developer", List.of(u, r, r, r, r, r, h, p, a, a, r))
                .containsEntry("EXECUTE operator", List.of(u, r, r, h, p, a, r, r, r, a, r))
                .containsEntry("OWNER viewer", List.of(u, h, p, h, p, a, h, p, a, a, r));
    }

    @Test
    void onlyTheServiceIdentityReachesAServiceRule() {
        Rule internal = new Rule("POST /internal/claims", "service", Need.NONE);
        assertThat(AccessFixtures.CALLERS.stream().map(who -> AccessMatrix.expect(internal, who,
                AccessFixtures.ACCESS)).toList()).containsExactly(Outcome.UNAUTHENTICATED, Outcome.ROLE_REFUSED,
                Outcome.ROLE_REFUSED, Outcome.ROLE_REFUSED, Outcome.ROLE_REFUSED, Outcome.ROLE_REFUSED,
                Outcome.ROLE_REFUSED, Outcome.ROLE_REFUSED, Outcome.ROLE_REFUSED, Outcome.ROLE_REFUSED,
                Outcome.ALLOWED);
    }
}
