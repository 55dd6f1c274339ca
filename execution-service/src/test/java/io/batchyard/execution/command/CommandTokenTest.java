package io.batchyard.execution.command;

import static io.batchyard.execution.ExecutionFixtures.WAIT;
import static io.batchyard.execution.ExecutionFixtures.id;
import static org.assertj.core.api.Assertions.assertThat;
import static org.awaitility.Awaitility.await;

import io.batchyard.events.LifecycleCommandType;
import io.batchyard.events.execution.CommandRejected;
import io.batchyard.events.execution.JobStarted;
import io.batchyard.events.execution.LifecycleCommand;
import io.batchyard.execution.ExecutionFixtures;
import io.batchyard.execution.ExecutionTest;
import io.batchyard.schemas.Events;
import io.batchyard.schemas.RecordHeaders;
import io.batchyard.schemas.Topics;
import io.batchyard.schemas.kafka.EventSerializer;
import io.batchyard.teststack.BatchyardTestStack;
import io.batchyard.teststack.DeadLetters;
import io.batchyard.teststack.EventProbe;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.ProcessTrees;
import io.batchyard.teststack.RegistrySerdes;
import io.batchyard.teststack.identity.Identity;
import java.nio.charset.StandardCharsets;
import java.sql.Connection;
import java.sql.PreparedStatement;
import java.sql.ResultSet;
import java.sql.SQLException;
import java.time.Duration;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.TimeUnit;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.Config;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.config.ConfigResource;
import org.apache.kafka.common.config.TopicConfig;
import org.apache.kafka.common.header.Headers;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;
import org.eclipse.microprofile.config.inject.ConfigProperty;
import org.junit.jupiter.api.Test;

/**
 * A command's bearer token lives no longer than the commands topic keeps it (an hour): a command that is dead-lettered
 * carries the sender the service verified in its {@code actor} header and no {@code authorization} header, whether
 * it failed after it was read or never decoded; a producer cannot name the sender itself; nothing the service
 * stores about a command holds the token; and a token meant for another audience is refused like no token.
 */
@ExecutionTest
class CommandTokenTest {

    private static final String DLQ = "batchyard.dlq.execution-service.commands";

    @ConfigProperty(name = "kafka.bootstrap.servers")
    String bootstrap;

    @Test
    void aDeadLetteredCommandNamesItsVerifiedSenderAndCarriesNoToken() throws Exception {
        long p = id(), s1 = id();
        String operator = "op-" + UUID.randomUUID();
        String token = Identity.get().token(operator, "operator");
        // Poison that decodes: its id is no UUID, so the ledger cannot record it once it has been authorised.
        String poisonId = "not-a-uuid-" + UUID.randomUUID();
        LifecycleCommand poison = command(LifecycleCommandType.INIT_JOB, p, poisonId);
        String garbage = "garbage-" + UUID.randomUUID();
        try (ExecutionFixtures f = new ExecutionFixtures(bootstrap);
             EventProbe lifecycle = EventProbe.on(bootstrap, Topics.EXECUTION_LIFECYCLE);
             EventProbe rejections = EventProbe.on(bootstrap, Topics.EXECUTION_REJECTIONS);
             KafkaProducer<String, byte[]> producer = producer();
             EventSerializer serializer = RegistrySerdes.serializer(Infrastructure.get().schemaRegistryUrl())) {
            f.publisher.publish(Topics.REGISTRY_PROCESSES, "application-1",
                    ProcessTrees.application(1, null, null, 7, 7, 7));
            f.register(ProcessTrees.parent(p).next(s1).step(s1, s -> s.next(p)));

            // Each record also claims a sender of its own choosing.
            Headers poisonHeaders = headers(token, "someone-else");
            byte[] poisonBytes = serializer.serialize(Topics.EXECUTION_COMMANDS, poisonHeaders, poison);
            send(producer, new ProducerRecord<>(Topics.EXECUTION_COMMANDS, null, String.valueOf(p), poisonBytes,
                    poisonHeaders));
            send(producer, new ProducerRecord<>(Topics.EXECUTION_COMMANDS, null, String.valueOf(p),
                    garbage.getBytes(StandardCharsets.UTF_8), headers(token, "someone-else")));
            // A good command behind the poison on the same key still runs, with the same token.
            LifecycleCommand init = command(LifecycleCommandType.INIT_JOB, p, UUID.randomUUID().toString());
            Headers initHeaders = headers(token, "someone-else");
            send(producer, new ProducerRecord<>(Topics.EXECUTION_COMMANDS, null, String.valueOf(p),
                    serializer.serialize(Topics.EXECUTION_COMMANDS, initHeaders, init), initHeaders));
            var started = lifecycle.await(JobStarted.class, e -> e.getProcessId() == p, WAIT);
            assertThat(started.event().getHeader().getActor()).as("the verified sender, not the claimed one")
                    .isEqualTo(operator);
            // A validly signed token the issuer made for another application is no token here.
            LifecycleCommand foreign = command(LifecycleCommandType.HALT_STEP, p, UUID.randomUUID().toString());
            f.publisher.publishAs("Bearer " + Identity.get().tokenForAudience("elsewhere", operator, "operator"),
                    Topics.EXECUTION_COMMANDS, p, foreign);
            var refused = rejections.await(CommandRejected.class,
                    e -> foreign.getHeader().getEventId().equals(e.getHeader().getCorrelationId()), WAIT);
            assertThat(refused.event().getCode()).isEqualTo(12);
        }

        DeadLetters.Letter poisoned = await().atMost(WAIT).until(() -> letter(l -> l.event() != null
                && poisonId.equals(Events.headerOf(l.event()).getEventId())), Optional::isPresent).orElseThrow();
        assertThat(poisoned.headers()).as(poisoned.describe()).doesNotContainKey(RecordHeaders.AUTHORIZATION)
                .containsEntry(CommandConsumer.ACTOR_HEADER, operator)
                .containsEntry("dead-letter-classification", "invalid");
        assertThat(poisoned.reasonHeaders()).doesNotContain(token);

        DeadLetters.Letter undecodable = await().atMost(WAIT).until(() -> letter(l -> l.event() == null
                && garbage.equals(new String(l.value(), StandardCharsets.UTF_8))), Optional::isPresent).orElseThrow();
        assertThat(undecodable.headers()).as(undecodable.describe())
                .doesNotContainKey(RecordHeaders.AUTHORIZATION)
                .as("never read, so nobody was verified: no sender at all, certainly not the claimed one")
                .doesNotContainKey(CommandConsumer.ACTOR_HEADER);
        assertThat(undecodable.reasonHeaders()).doesNotContain(token);

        // What the service keeps about commands (their audit entries, ledger rows and answers) names senders only.
        assertThat(rowsHolding(token)).isZero();
    }

    @Test
    void theCommandsTopicKeepsItsRecordsForAnHour() throws Exception {
        Properties props = new Properties();
        props.put(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap);
        try (Admin admin = Admin.create(props)) {
            ConfigResource commands = new ConfigResource(ConfigResource.Type.TOPIC, Topics.EXECUTION_COMMANDS);
            Config config = admin.describeConfigs(List.of(commands)).all().get(30, TimeUnit.SECONDS).get(commands);
            assertThat(config.get(TopicConfig.RETENTION_MS_CONFIG).value())
                    .isEqualTo(String.valueOf(Duration.ofHours(1).toMillis()));
        }
    }

    private Optional<DeadLetters.Letter> letter(java.util.function.Predicate<DeadLetters.Letter> which) {
        return DeadLetters.read(bootstrap, DLQ).stream().filter(which).findFirst();
    }

    private static Headers headers(String token, String claimedActor) {
        Headers headers = new org.apache.kafka.common.header.internals.RecordHeaders();
        headers.add(RecordHeaders.AUTHORIZATION, ("Bearer " + token).getBytes(StandardCharsets.UTF_8));
        headers.add(CommandConsumer.ACTOR_HEADER, claimedActor.getBytes(StandardCharsets.UTF_8));
        return headers;
    }

    private KafkaProducer<String, byte[]> producer() {
        return new KafkaProducer<>(Map.of(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, bootstrap,
                ProducerConfig.ACKS_CONFIG, "all"), new StringSerializer(), new ByteArraySerializer());
    }

    private static void send(KafkaProducer<String, byte[]> producer, ProducerRecord<String, byte[]> record)
            throws Exception {
        producer.send(record).get(30, TimeUnit.SECONDS);
    }

    /** Rows of the service's audit trail, ledger and outbox in which {@code token} appears anywhere. */
    private static long rowsHolding(String token) throws SQLException {
        try (Connection c = connect();
             PreparedStatement s = c.prepareStatement("""
                     SELECT (SELECT count(*) FROM audit_entry a WHERE strpos(a::text, ?) > 0)
                          + (SELECT count(*) FROM processed_event p WHERE strpos(p::text, ?) > 0)
                          + (SELECT count(*) FROM outbox_event o
                             WHERE strpos(o::text, ?) > 0 OR position(convert_to(?, 'UTF8') IN o.payload) > 0)""")) {
            for (int i = 1; i <= 4; i++) {
                s.setString(i, token);
            }
            try (ResultSet rs = s.executeQuery()) {
                rs.next();
                return rs.getLong(1);
            }
        }
    }

    private static LifecycleCommand command(LifecycleCommandType type, long pid, String eventId) {
        var header = Events.header("spark-job", null, null);
        header.setEventId(eventId);
        return LifecycleCommand.newBuilder().setHeader(header).setCommand(type).setProcessId(pid).setMaxBatch(1)
                .setBatchMarking(null).build();
    }

    private static Connection connect() throws SQLException {
        var db = BatchyardTestStack.database();
        return db.connect();
    }
}
