package io.batchyard.bench;

import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;

/**
 * Between two runs of the triggering benchmark: moves execution-service's trigger consumer group to the end of the
 * batches topic, dropping the backlog an earlier run left (events the stack had not applied when that run ended). The
 * group must have no members: execution-service is stopped first (bench/triggering.sh does, when asked to). Prints how
 * many events were dropped.
 *
 * <p>Usage: {@code TriggerBacklog --kafka host:port}.
 */
public final class TriggerBacklog {

    private TriggerBacklog() {
    }

    public static void main(String[] args) throws Exception {
        Map<String, String> opts = Bench.options(args);
        try (Admin admin = Admin.create(Map.of(AdminClientConfig.BOOTSTRAP_SERVERS_CONFIG, opts.get("kafka")))) {
            Map<TopicPartition, Long> committed = TriggerBenchmark.committed(admin);
            Map<TopicPartition, OffsetAndMetadata> moved = new HashMap<>();
            long dropped = 0;
            for (Map.Entry<TopicPartition, Long> end : TriggerBenchmark.ends(admin).entrySet()) {
                dropped += end.getValue() - committed.getOrDefault(end.getKey(), 0L);
                moved.put(end.getKey(), new OffsetAndMetadata(end.getValue()));
            }
            admin.alterConsumerGroupOffsets(TriggerBenchmark.TRIGGER_GROUP, moved).all().get();
            System.out.printf("[trigger] dropped the trigger consumer's backlog: %d events of an earlier run%n",
                    dropped);
        }
    }
}
