package io.batchyard.e2e;

import io.batchyard.api.Roles;
import io.batchyard.api.access.AccessPolicy;
import io.batchyard.api.access.AccessPolicy.Need;
import io.batchyard.api.access.AccessPolicy.Rule;
import io.batchyard.api.access.ApplicationAccess;
import io.batchyard.api.access.ApplicationGuard;
import io.batchyard.api.access.Caller;
import io.batchyard.api.access.Permission;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Set;
import java.util.TreeSet;
import java.util.function.Function;

/**
 * What the access policy says each kind of caller must get from each operation, as pure functions of the live
 * operations, the policy's rules and the application's permission settings. The end-to-end matrix asks here, never
 * a copy of the table: {@link #plan} pairs every live operation with its rule (and names the ones without), and
 * {@link #expect} turns a rule and a caller into the answer the services owe that caller.
 */
final class AccessMatrix {

    private AccessMatrix() {
    }

    /**
     * One kind of caller. {@code user} null is a call without a token.
     *
     * @param label how a mismatch names the caller
     */
    record Who(String label, String user, Set<String> roles, Set<String> groups) {

        boolean anonymous() {
            return user == null;
        }

        /** The caller as application permissions see it (the same record the services build from a token). */
        Caller caller() {
            return anonymous() ? new Caller("anonymous", Set.of(), false)
                    : new Caller(user, groups, roles.contains(Roles.ADMIN));
        }
    }

    /** What the answer must be. */
    enum Outcome {
        /** 401 problem+json, code 12. */
        UNAUTHENTICATED,
        /** 403 problem+json, code 13: the caller's roles do not reach the rule. */
        ROLE_REFUSED,
        /** The object answers as if it did not exist: the caller may not read its application. */
        HIDDEN,
        /** 403 problem+json, code 14: the caller may read the object but lacks the write or execute it needs. */
        PERMISSION_REFUSED,
        /** Neither 401, 403 nor 404 (a 400 or 409 of validation or state is fine), and no 5xx. */
        ALLOWED,
        /** 200, a list holding the fixture's object. */
        LISTED_WITH_OBJECT,
        /** 200, a list without the fixture's object. */
        LISTED_WITHOUT_OBJECT
    }

    /** One operation of one service and its rule. */
    record Entry(String service, String operation, Rule rule) {
    }

    /**
     * What the matrix will walk: every live operation that has a rule, every live operation without one
     * ("service: METHOD /path"), and every rule whose operation no live document has.
     */
    record Plan(List<Entry> entries, List<String> withoutRule, List<String> withoutOperation) {
    }

    /**
     * Pairs the live operations of each service ("METHOD /path" as its OpenAPI document names them) with the rules
     * {@code rules} gives for that service. An operation without a rule is named in {@link Plan#withoutRule()}:
     * deny by default means a new operation without a row is a failure, not a pass.
     */
    static Plan plan(Map<String, List<String>> liveByService, Function<String, List<Rule>> rules) {
        List<Entry> entries = new ArrayList<>();
        List<String> withoutRule = new ArrayList<>();
        List<String> withoutOperation = new ArrayList<>();
        liveByService.forEach((service, live) -> {
            Map<String, Rule> byOperation = new LinkedHashMap<>();
            rules.apply(service).forEach(rule -> byOperation.put(rule.operation(), rule));
            for (String operation : new TreeSet<>(live)) {
                Rule rule = byOperation.get(operation);
                if (rule == null) {
                    withoutRule.add(service + ": " + operation);
                } else {
                    entries.add(new Entry(service, operation, rule));
                }
            }
            byOperation.keySet().stream().filter(op -> !live.contains(op))
                    .forEach(op -> withoutOperation.add(service + ": " + op));
        });
        return new Plan(entries, withoutRule, withoutOperation);
    }

    /** The same with the policy's own rules. */
    static Plan plan(Map<String, List<String>> liveByService) {
        return plan(liveByService, AccessPolicy::of);
    }

    /**
     * The answer {@code who} is owed by an operation with {@code rule} on an object of the application whose
     * permissions are {@code access}: first the token (401), then the role (403, 13), then the application
     * permission by the shared rule (hidden without read; 403, 14 with read but without the bit; lists filtered).
     */
    static Outcome expect(Rule rule, Who who, ApplicationAccess access) {
        if (who.anonymous()) {
            return Outcome.UNAUTHENTICATED;
        }
        if (!Roles.reaches(who.roles(), rule.role())) {
            return Outcome.ROLE_REFUSED;
        }
        Caller caller = who.caller();
        Optional<ApplicationAccess> of = Optional.of(access);
        boolean reads = ApplicationGuard.canRead(caller, of);
        return switch (rule.need()) {
            case NONE -> Outcome.ALLOWED;
            case FILTERED -> reads ? Outcome.LISTED_WITH_OBJECT : Outcome.LISTED_WITHOUT_OBJECT;
            case READ -> reads ? Outcome.ALLOWED : Outcome.HIDDEN;
            case WRITE, EXECUTE -> ApplicationGuard.allows(caller, of, permission(rule.need())) ? Outcome.ALLOWED
                    : reads ? Outcome.PERMISSION_REFUSED : Outcome.HIDDEN;
            case OWNER -> access.administeredBy(caller) ? Outcome.ALLOWED
                    : reads ? Outcome.PERMISSION_REFUSED : Outcome.HIDDEN;
        };
    }

    private static Permission permission(Need need) {
        return need == Need.WRITE ? Permission.WRITE : Permission.EXECUTE;
    }
}
