package io.batchyard.k8s;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import java.util.Set;
import java.util.TreeSet;
import java.util.stream.Collectors;
import java.util.stream.Stream;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.MethodSource;

/**
 * The Kafka resources follow the code: a KafkaTopic for every topic of the contract and every dead-letter topic a
 * consumer writes (and none else), and for each deployable a KafkaUser whose ACLs grant exactly what its sources
 * read and write (SourceFacts), which its Deployment authenticates as.
 */
class KafkaContractTest {

    static Stream<String> trees() {
        return Manifests.trees();
    }

    @ParameterizedTest
    @MethodSource("trees")
    void everyContractTopicAndDeadLetterTopicHasAKafkaTopicAndNothingElseDoes(String tree) {
        Set<String> expected = new TreeSet<>(SourceFacts.contractTopics());
        expected.addAll(SourceFacts.deadLetterTopics());
        Set<String> declared = Manifests.of(tree).kind("KafkaTopic").map(KafkaContractTest::topicName)
                .collect(Collectors.toCollection(TreeSet::new));
        assertThat(declared).isEqualTo(expected);
        assertThat(SourceFacts.contractTopics()).hasSize(14);
        assertThat(SourceFacts.deadLetterTopics()).allMatch(t -> t.startsWith("batchyard.dlq."));
        Manifests.of(tree).kind("KafkaTopic").forEach(t ->
                assertThat(t.at("/metadata/labels/strimzi.io~1cluster").asText()).isEqualTo("batchyard"));
    }

    @ParameterizedTest
    @MethodSource("trees")
    void commandsAreKeptAnHourForTheTokensTheyCarry(String tree) {
        Manifests.of(tree).kind("KafkaTopic").forEach(t -> {
            long retention = t.at("/spec/config/retention.ms").asLong();
            if (topicName(t).equals("batchyard.execution.commands")) {
                assertThat(retention).as(topicName(t)).isEqualTo(3_600_000L);
            } else {
                assertThat(retention).as(topicName(t)).isGreaterThanOrEqualTo(604_800_000L);
            }
        });
    }

    @Test
    void productionKeepsThreeCopiesAndNeedsTwoForAWrite() {
        Manifests prod = Manifests.of("production");
        prod.kind("KafkaTopic").forEach(t -> {
            assertThat(t.at("/spec/replicas").asInt()).as(topicName(t)).isEqualTo(3);
            assertThat(t.at("/spec/config/min.insync.replicas").asInt()).as(topicName(t)).isEqualTo(2);
        });
        JsonNode pool = prod.get("KafkaNodePool", "dual-role");
        assertThat(pool.at("/spec/replicas").asInt()).isEqualTo(3);
        assertThat(pool.at("/spec/roles").toString()).contains("controller", "broker");
        JsonNode config = prod.get("Kafka", "batchyard").at("/spec/kafka/config");
        assertThat(config.path("default.replication.factor").asInt()).isEqualTo(3);
        assertThat(config.path("min.insync.replicas").asInt()).isEqualTo(2);
        assertThat(config.path("offsets.topic.replication.factor").asInt()).isEqualTo(3);
        Manifests.of("local").kind("KafkaTopic").forEach(t -> assertThat(t.at("/spec/replicas").asInt()).isEqualTo(1));
        assertThat(Manifests.of("local").get("KafkaNodePool", "dual-role").at("/spec/replicas").asInt()).isEqualTo(1);
    }

    @Test
    void clientsMustAuthenticateAndAreAuthorised() {
        JsonNode kafka = Manifests.of("production").get("Kafka", "batchyard").at("/spec/kafka");
        assertThat(kafka.at("/authorization/type").asText()).isEqualTo("simple");
        assertThat(kafka.path("listeners")).allSatisfy(l -> {
            assertThat(l.path("tls").asBoolean()).isTrue();
            assertThat(l.at("/authentication/type").asText()).isEqualTo("scram-sha-512");
        });
        assertThat(kafka.at("/config/auto.create.topics.enable").asBoolean(true)).isFalse();
    }

    @ParameterizedTest
    @MethodSource("trees")
    void eachDeployablesAclsAreExactlyWhatItsSourcesUse(String tree) {
        for (String app : SourceFacts.DEPLOYABLES) {
            SourceFacts.KafkaUse use = SourceFacts.kafkaUse(app);
            Set<String> expected = new TreeSet<>();
            for (String t : use.readTopics()) {
                expected.add("topic " + t + " literal Read");
                expected.add("topic " + t + " literal Describe");
            }
            for (String t : union(use.writeTopics(), use.deadLetterTopics())) {
                expected.add("topic " + t + " literal Write");
                expected.add("topic " + t + " literal Describe");
            }
            for (String g : use.groups()) {
                expected.add(g.endsWith("*") ? "group " + g.substring(0, g.length() - 1) + " prefix Read"
                        : "group " + g + " literal Read");
            }
            ObjectNode user = Manifests.of(tree).get("KafkaUser", app);
            assertThat(user.at("/spec/authentication/type").asText()).isEqualTo("scram-sha-512");
            assertThat(acls(user)).as(app).isEqualTo(expected);

            // The Deployment authenticates as that user, through the listener the user is allowed on.
            JsonNode c = Manifests.container(Manifests.of(tree).get("Deployment", app));
            assertThat(Manifests.env(c, "KAFKA_SASL_JAAS_CONFIG").at("/valueFrom/secretKeyRef/name").asText()).isEqualTo(app);
            assertThat(Manifests.env(c, "KAFKA_SASL_JAAS_CONFIG").at("/valueFrom/secretKeyRef/key").asText())
                    .isEqualTo("sasl.jaas.config");
        }
        JsonNode config = Manifests.of(tree).get("ConfigMap", "batchyard-config").path("data");
        assertThat(config.path("KAFKA_SECURITY_PROTOCOL").asText()).isEqualTo("SASL_SSL");
        assertThat(config.path("KAFKA_SASL_MECHANISM").asText()).isEqualTo("SCRAM-SHA-512");
        assertThat(config.path("KAFKA_BOOTSTRAP_SERVERS").asText()).isEqualTo("batchyard-kafka-bootstrap:9093");
    }

    @Test
    void theSourcesAreReadTheWayTheServicesReadThem() {
        // A guard on SourceFacts itself: facts every README states.
        SourceFacts.KafkaUse queue = SourceFacts.kafkaUse("queue-service");
        assertThat(queue.readTopics()).contains("batchyard.execution.lifecycle", "batchyard.queue.objects",
                "batchyard.registry.processes");
        assertThat(queue.groups()).contains("queue-service-process-readmodel", "queue-service-lifecycle");
        assertThat(queue.writeTopics()).contains("batchyard.queue.batches", "batchyard.queue.files",
                "batchyard.queue.compaction");
        assertThat(SourceFacts.kafkaUse("registry-service").readTopics()).isEmpty();
        assertThat(SourceFacts.kafkaUse("dashboard").groups()).containsExactly("dashboard-*");
        assertThat(SourceFacts.kafkaUse("dashboard").deadLetterTopics()).isEmpty();
    }

    static String topicName(JsonNode t) {
        return t.at("/spec/topicName").asText(Manifests.name(t));
    }

    private static Set<String> acls(JsonNode user) {
        Set<String> acls = new TreeSet<>();
        for (JsonNode acl : user.at("/spec/authorization/acls")) {
            JsonNode r = acl.path("resource");
            for (JsonNode op : acl.path("operations")) {
                acls.add(r.path("type").asText() + " " + r.path("name").asText() + " "
                        + r.path("patternType").asText("literal") + " " + op.asText());
            }
            assertThat(acl.path("host").asText("*")).isEqualTo("*");
        }
        return acls;
    }

    private static Set<String> union(Set<String> a, Set<String> b) {
        Set<String> u = new TreeSet<>(a);
        u.addAll(b);
        return u;
    }
}
