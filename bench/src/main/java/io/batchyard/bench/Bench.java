package io.batchyard.bench;

import com.fasterxml.jackson.databind.JsonNode;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import java.util.function.Predicate;

/**
 * What the benchmark clients share: their command line, percentiles, the client's own CPU, window marks, and the
 * registry calls that build their processes.
 */
final class Bench {

    private Bench() {
    }

    /** Where the stack answers: bench scripts pass every address from deploy/local/common.sh. */
    record Endpoints(String registry, String execution, String queue, String kafka, String schemaRegistry) {

        static Endpoints of(Map<String, String> opts) {
            // Records name their schema by id: the client decodes them through the stack's registry.
            return new Endpoints(opts.getOrDefault("registry", "http://127.0.0.1:8081"),
                    opts.getOrDefault("execution", "http://127.0.0.1:8082"),
                    opts.getOrDefault("queue", "http://127.0.0.1:8083"),
                    opts.getOrDefault("kafka", "127.0.0.1:9092"),
                    opts.getOrDefault("schema-registry",
                            System.getenv().getOrDefault("BATCHYARD_SCHEMA_REGISTRY_URL", "http://127.0.0.1:8085")));
        }
    }

    static Map<String, String> options(String[] args) {
        Map<String, String> opts = new HashMap<>();
        for (int i = 0; i + 1 < args.length; i += 2) {
            if (!args[i].startsWith("--")) {
                throw new IllegalArgumentException("expected --name value pairs, got " + args[i]);
            }
            opts.put(args[i].substring(2), args[i + 1]);
        }
        return opts;
    }

    /** The p-th percentile of sorted nanos, in ms (nearest rank); 0 when there are none. */
    static double pct(List<Long> sorted, double p) {
        if (sorted.isEmpty()) {
            return 0;
        }
        int index = (int) Math.ceil(p * sorted.size()) - 1;
        return sorted.get(Math.max(0, Math.min(sorted.size() - 1, index))) / 1e6;
    }

    static void sleep(long ms) {
        try {
            Thread.sleep(ms);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    /** The CPU time this process has used so far. */
    static Duration cpu() {
        return ProcessHandle.current().info().totalCpuDuration().orElse(Duration.ZERO);
    }

    /** Runs a window mark's command and waits for it; a failed one is reported and the run goes on. */
    static void mark(String command) throws InterruptedException {
        if (command == null || command.isBlank()) {
            return;
        }
        try {
            int exit = new ProcessBuilder("bash", "-c", command).inheritIO().start().waitFor();
            if (exit != 0) {
                System.out.printf("[bench] window mark exited with %d: %s%n", exit, command);
            }
        } catch (java.io.IOException e) {
            System.out.printf("[bench] window mark could not run (%s): %s%n", e.getMessage(), command);
        }
    }

    /**
     * HaltJob's answer and the events it causes race: an event may be decoded before the client has stamped the
     * answer. Waits up to a second for the stamp; null when it never came.
     */
    static Long awaitStamp(Map<Long, Long> stamps, long key) {
        Long stamp = null;
        for (int i = 0; i < 200 && (stamp = stamps.get(key)) == null; i++) {
            sleep(5);
        }
        return stamp;
    }

    static long application(Http http, String registry, String description) {
        return http.expect(201, "POST", registry + "/applications", Map.of("name", "bench-" + UUID.randomUUID()
                .toString().substring(0, 8), "description", description, "owner", "bench")).get("id").asLong();
    }

    /**
     * Registers a process: a parent when {@code parent} is null, else a step of it that consumes the batches of
     * {@code enqueuers}. A null {@code workflowType} leaves the registry's default.
     */
    static long process(Http http, String registry, long app, int processType, Integer workflowType, Long parent,
                        List<Long> enqueuers) {
        Map<String, Object> body = new HashMap<>();
        String kind = parent == null ? "bench-job-" : "bench-step-";
        body.put("name", kind + UUID.randomUUID().toString().substring(0, 8));
        body.put("description", "benchmark");
        body.put("applicationId", app);
        body.put("processTypeId", processType);
        if (workflowType != null) {
            body.put("workflowTypeId", workflowType);
        }
        body.put("parentProcessId", parent);
        body.put("enqueuingProcessIds", enqueuers);
        return http.expect(201, "POST", registry + "/processes", body).get("id").asLong();
    }

    static void link(Http http, String registry, long process, long next) {
        http.expect(200, "PATCH", registry + "/processes/" + process, Map.of("nextProcessIds", List.of(next)));
    }

    /** Waits until a service's read model of a process satisfies {@code known} (a minute at most). */
    static void awaitDefinition(Http http, String service, long id, Predicate<JsonNode> known)
            throws InterruptedException {
        for (int i = 0; i < 600; i++) {
            Http.Reply r = http.send("GET", service + "/process-definitions/" + id, null);
            if (r.status() == 200 && known.test(r.body())) {
                return;
            }
            Thread.sleep(100);
        }
        throw new IllegalStateException(service + " never learned process " + id);
    }

    /** Waits until each service's read model has a link out of each process (the last change a chain makes). */
    static void awaitLinked(Http http, List<String> services, List<Long> ids) throws InterruptedException {
        for (String service : services) {
            for (long id : ids) {
                awaitDefinition(http, service, id, body -> body.get("nextProcessIds").size() > 0);
            }
        }
    }

    /** Waits until every deployment ended in SUCCESS (the poller takes up to ten requests per poll). */
    static void awaitDeployed(Http http, String execution, List<Long> deployments) throws InterruptedException {
        // The deployment poller takes up to ten requests every 10 s: many chains take a while.
        long deadline = System.nanoTime() + TimeUnit.SECONDS.toNanos(60 + deployments.size() * 2L);
        for (long id : deployments) {
            while (true) {
                JsonNode d = http.expect(200, "GET", execution + "/deployments/" + id, null);
                if (d.hasNonNull("endTs")) {
                    if (!"SUCCESS".equals(d.get("status").asText())) {
                        throw new IllegalStateException("deployment " + id + " ended " + d.get("status") + ": "
                                + d.get("message"));
                    }
                    break;
                }
                if (System.nanoTime() > deadline) {
                    throw new IllegalStateException("deployment " + id + " did not end in time: " + d);
                }
                Thread.sleep(500);
            }
        }
    }
}
