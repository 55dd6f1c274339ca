package io.batchyard.bench;

import io.batchyard.schemas.Topics;
import java.util.HashMap;
import java.util.Map;
import org.apache.kafka.clients.admin.Admin;
import org.apache.kafka.clients.admin.AdminClientConfig;
import org.apache.kafka.clients.admin.ListOffsetsResult;
import org.apache.kafka.clients.admin.OffsetSpec;
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
            Map<TopicPartition, OffsetAndMetadata> committed = admin
                    .listConsumerGroupOffsets(TriggerBenchmark.TRIGGER_GROUP).partitionsToOffsetAndMetadata().get();
            Map<TopicPartition, OffsetSpec> ends = new HashMap<>();
            admin.describeTopics(java.util.List.of(Topics.QUEUE_BATCHES)).allTopicNames().get()
                    .get(Topics.QUEUE_BATCHES).partitions().forEach(p -> ends.put(
                            new TopicPartition(Topics.QUEUE_BATCHES, p.partition()), OffsetSpec.latest()));
            Map<TopicPartition, OffsetAndMetadata> moved = new HashMap<>();
            long dropped = 0;
            for (Map.Entry<TopicPartition, ListOffsetsResult.ListOffsetsResultInfo> end
                    : admin.listOffsets(ends).all().get().entrySet()) {
                OffsetAndMetadata at = committed.get(end.getKey());
                dropped += end.getValue().offset() - (at == null ? 0 : at.offset());
                moved.put(end.getKey(), new OffsetAndMetadata(end.getValue().offset()));
            }
            admin.alterConsumerGroupOffsets(TriggerBenchmark.TRIGGER_GROUP, moved).all().get();
            System.out.printf("[trigger] dropped the trigger consumer's backlog: %d events of an earlier run%n",
                    dropped);
        }
    }
}
