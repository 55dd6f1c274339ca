package io.batchyard.e2e;

import static io.restassured.RestAssured.given;
import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.e2e.RegistryFixtures.Job;
import io.batchyard.schemas.Topics;
import io.batchyard.teststack.ChildProcesses;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.RestartableKafka;
import io.restassured.http.ContentType;
import io.restassured.response.Response;
import io.restassured.specification.RequestSpecification;
import java.time.Duration;
import java.time.Instant;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.concurrent.ConcurrentLinkedQueue;
import java.util.concurrent.ExecutorService;
import java.util.concurrent.Executors;
import java.util.concurrent.Future;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import java.util.stream.Collectors;
import java.util.stream.IntStream;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.BeforeAll;
import org.junit.jupiter.api.Test;

/**
 * Two replicas of execution-service and of queue-service (separate JVMs on one database per service and one broker)
 * serve a hundred lifecycles whose calls alternate between the execution replicas, each of which claims through its
 * own queue replica. Both replicas' outbox relays compete for one lead, both queue replicas share the lifecycle
 * topic's partitions: every fan-out still arrives exactly once, and no run is left running.
 */
class ReplicasEndToEndTest {

    private static final Duration WAIT = Duration.ofSeconds(120);
    private static final String MARKING = "2024-08-01";
    private static final int JOBS = 20;
    private static final int ROUNDS = 5;
    private static final int DRIVERS = 4;

    private static RestartableKafka kafka;
    private static Stack stack;
    private static EventProbe batches;


    @BeforeAll
    static void start() {
        // A broker and databases of its own: its ids would collide with the other tests' in a shared one.
        kafka = RestartableKafka.start(Topics.ALL);
        stack = Stack.withReplicas(kafka.bootstrapServers(), "replicas_");
        batches = EventProbe.on(kafka.bootstrapServers(), Topics.QUEUE_BATCHES);
    }

    @AfterAll
    static void stop() {
        ChildProcesses.closeAll("replicas", batches, stack, kafka);
    }

    @Test
    void aHundredLifecyclesOverTwoReplicasFanOutExactlyOnceAndLeaveNoRunBehind() throws Exception {
        long app = json(stack.registry).body(Map.of("name", "replicas-" + System.nanoTime(), "description",
                "replicas", "owner", "e2e")).post("/applications").then().statusCode(201).extract().jsonPath()
                .getLong("id");
        List<Job> jobs = IntStream.range(0, JOBS).mapToObj(i -> job(app, List.of())).toList();
        List<Long> parents = jobs.stream().map(Job::parent).toList();
        List<Long> consumers = Stream.of(job(app, parents), job(app, parents)).map(Job::step).toList();
        for (Job job : jobs) {
            RegistryFixtures.awaitKnown(stack, job.step(), job.parent(), WAIT);
        }
        FanOutChecks fanOuts = new FanOutChecks(batches, consumers, kafka.bootstrapServers(),
                () -> json(stack.queueReplica), WAIT);

        List<ServiceProcess> replicas = List.of(stack.execution, stack.executionReplica);
        AtomicInteger calls = new AtomicInteger();
        int[] perReplica = new int[replicas.size()];
        ConcurrentLinkedQueue<long[]> runs = new ConcurrentLinkedQueue<>(); // {run, target batch, parent}
        Instant start = Instant.now();
        ExecutorService pool = Executors.newFixedThreadPool(DRIVERS);
        List<Future<?>> work = new ArrayList<>();
        for (int d = 0; d < DRIVERS; d++) {
            List<Job> mine = jobs.subList(d * JOBS / DRIVERS, (d + 1) * JOBS / DRIVERS);
            work.add(pool.submit(() -> {
                for (int round = 0; round < ROUNDS; round++) {
                    for (Job job : mine) {
                        runs.add(lifecycle(job, () -> {
                            int i = calls.getAndIncrement() % replicas.size();
                            synchronized (perReplica) {
                                perReplica[i]++;
                            }
                            return json(replicas.get(i));
                        }));
                    }
                }
                return null;
            }));
        }
        for (Future<?> f : work) {
            f.get(WAIT.toSeconds() * 3, TimeUnit.SECONDS);
        }
        pool.shutdown();
        List<long[]> all = List.copyOf(runs);
        assertThat(all).hasSize(JOBS * ROUNDS);

        Set<Long> targets = all.stream().map(r -> r[1]).collect(Collectors.toSet());
        assertThat(targets).as("every run its own target batch").hasSize(all.size());
        fanOuts.await(targets, targets.size() * fanOuts.perBatch());
        System.out.printf("[replicas] %d lifecycles (%d calls: %d and %d per execution replica) and their %d fan-outs "
                        + "in %d ms%n", all.size(), calls.get(), perReplica[0], perReplica[1],
                targets.size() * fanOuts.perBatch(), Duration.between(start, Instant.now()).toMillis());
        int copies = fanOuts.assertExactlyOnce(targets);
        if (copies > 0) {
            System.out.printf("[replicas]   (%d re-sent copies of already published events)%n", copies);
        }
        FanOutChecks.assertRunsEnded(() -> json(stack.executionReplica), all.stream().map(r -> r[0]).toList(),
                Set.copyOf(parents));
        fanOuts.assertNoDeadLetters();
    }

    /** InitJob, the step's InitStep and HaltStep, HaltJob; each call to the replica {@code next} picks. */
    private static long[] lifecycle(Job job, java.util.function.Supplier<RequestSpecification> next) {
        Response init = next.get().body(Map.of("maxBatch", 1)).post("/jobs/" + job.parent() + "/init");
        assertThat(init.statusCode()).as(init.asString()).isEqualTo(200);
        next.get().post("/steps/" + job.step() + "/init").then().statusCode(200);
        next.get().post("/steps/" + job.step() + "/halt").then().statusCode(200);
        next.get().body(Map.of("batchMarking", MARKING)).post("/jobs/" + job.parent() + "/halt").then()
                .statusCode(200);
        return new long[] {init.jsonPath().getLong("instanceExecId"), init.jsonPath().getLong("targetBatchId"),
                job.parent()};
    }

    private static Job job(long app, List<Long> enqueuers) {
        return RegistryFixtures.job(stack, app, enqueuers);
    }

    private static RequestSpecification json(ServiceProcess service) {
        return given().baseUri(service.url()).contentType(ContentType.JSON);
    }
}
