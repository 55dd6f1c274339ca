package io.batchyard.client.hive;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.client.hive.QueryExtraction.Missing;
import io.batchyard.events.lineage.QueryRegistered;
import io.batchyard.teststack.Infrastructure;
import io.batchyard.teststack.TopicContents;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.util.HashMap;
import java.util.List;
import java.util.Map;
import java.util.concurrent.ThreadLocalRandom;
import java.util.function.Predicate;
import org.apache.avro.io.DecoderFactory;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.junit.jupiter.api.Test;

/**
 * What the hook puts on {@code batchyard.lineage.queries} of a real broker, through a real schema registry
 * (deploy/test-stack), for the text Hive hands it: everything after {@link LineageHook} has read Hive's objects.
 */
class ScriptRegistrationTest {

    private static final String TOPIC = "batchyard.lineage.queries";
    private static final String SCRIPT =
            "use sales; -- c\n insert overwrite table t select a from s ; set x=1; select b from t";

    private final Infrastructure infra = Infrastructure.get();

    @Test
    void aScriptArrivesAsOneQueryRegisteredPerStatementInItsOrder() {
        long process = newId();
        int sent = ScriptRegistration.register(conf(process, "1007")::get, Map.of(), SCRIPT, "hive_1_" + process,
                "QUERY", "default");

        assertThat(sent).isEqualTo(3);
        List<ConsumerRecord<byte[], byte[]>> records = onTopic(r -> new String(r.key(), StandardCharsets.UTF_8)
                .equals(String.valueOf(process)));
        List<QueryRegistered> events = records.stream().map(ScriptRegistrationTest::decode).toList();
        assertThat(events).extracting(e -> e.getQueryText().toString())
                .containsExactly("use sales", "insert overwrite table t select a from s", "select b from t");
        assertThat(events).extracting(e -> e.getDefaultDatabase().toString())
                .containsExactly("default", "sales", "sales");
        assertThat(events).allSatisfy(e -> {
            assertThat(e.getProcessId()).isEqualTo(process);
            assertThat(e.getInstanceExecId()).isEqualTo(1007L);
            assertThat(e.getHeader().getInstanceExecId()).isEqualTo(1007L);
            assertThat(e.getQueryType().toString()).isEqualTo("HIVE");
        });
        assertThat(events).extracting(e -> e.getQueryId().toString()).doesNotHaveDuplicates();
        assertThat(records).allSatisfy(r -> assertThat(new String(r.headers().lastHeader("event-type").value(),
                StandardCharsets.UTF_8)).isEqualTo("QueryRegistered"));
    }

    @Test
    void withoutTheRunOrTheProcessNothingReachesTheBroker() {
        long process = newId();
        String table = "t_" + process;
        String script = "use sales; insert overwrite table " + table + " select a from s; select b from " + table;

        assertThat(register(conf(process, null), script)).isZero();
        assertThat(register(conf(process, "${wf:actionData('init-job')['instance-exec-id']}"), script)).isZero();
        assertThat(register(conf(0, "1007"), script)).isZero();
        // The reason was logged with the first text it held back; the others are not logged again.
        assertThat(ScriptRegistration.firstTime(Missing.RUN_ID)).isFalse();
        assertThat(ScriptRegistration.firstTime(Missing.PROCESS_ID)).isFalse();

        // With both ids the same process's next statement goes: it is the only one of them on the topic.
        assertThat(register(conf(process, "1007"), "select c from " + table)).isEqualTo(1);
        List<String> texts = onTopic(r -> true).stream().map(ScriptRegistrationTest::decode)
                .map(e -> e.getQueryText().toString()).filter(t -> t.contains(table)).toList();
        assertThat(texts).containsExactly("select c from " + table);
    }

    private static int register(Map<String, String> conf, String text) {
        return ScriptRegistration.register(conf::get, Map.of(), text, "hive_" + newId(), "QUERY", null);
    }

    /** hive-site.xml's broker and registry, and what a generated Hive action sets (a null or 0 leaves one out). */
    private Map<String, String> conf(long process, String run) {
        Map<String, String> conf = new HashMap<>();
        conf.put(HookSettings.BOOTSTRAP_SERVERS, infra.kafkaBootstrapServers());
        conf.put(HookSettings.REGISTRY_URL, infra.schemaRegistryUrl());
        if (process > 0) {
            conf.put(QueryExtraction.PROCESS_ID, String.valueOf(process));
        }
        if (run != null) {
            conf.put(QueryExtraction.INSTANCE_EXEC_ID, run);
        }
        return conf;
    }

    /** The topic's records, read to its end (every send was acknowledged before this reads). */
    private List<ConsumerRecord<byte[], byte[]>> onTopic(Predicate<ConsumerRecord<byte[], byte[]>> which) {
        return TopicContents.read(infra.kafkaBootstrapServers(), TOPIC::equals, Duration.ofSeconds(30),
                Duration.ofSeconds(60)).stream().filter(which).toList();
    }

    /** The Avro body after the registry's 5-byte prefix (magic byte, schema id). */
    private static QueryRegistered decode(ConsumerRecord<byte[], byte[]> record) {
        byte[] v = record.value();
        assertThat(v[0]).isZero();
        try {
            return new SpecificDatumReader<>(QueryRegistered.class)
                    .read(null, DecoderFactory.get().binaryDecoder(v, 5, v.length - 5, null));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    private static long newId() {
        return ThreadLocalRandom.current().nextLong(1_000_000, Long.MAX_VALUE);
    }
}
