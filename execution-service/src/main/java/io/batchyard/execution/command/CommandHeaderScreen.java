package io.batchyard.execution.command;

import io.batchyard.schemas.RecordHeaders;
import java.util.Map;
import org.apache.kafka.clients.consumer.ConsumerInterceptor;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.ConsumerRecords;
import org.apache.kafka.clients.consumer.OffsetAndMetadata;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.header.Headers;

/**
 * Screens the headers of every polled command before the connector or {@link CommandConsumer} sees it (the commands
 * channel's {@code interceptor.classes}). A dead-lettered command keeps its headers, and the dead-letter topic keeps
 * its records far longer than a bearer token should live anywhere, so:
 * <ul>
 *   <li>a producer's own {@link CommandConsumer#ACTOR_HEADER} is dropped: only this service says who sent a command,
 *       once it has verified the token;</li>
 *   <li>a record that did not decode loses its {@code authorization} header here: the connector dead-letters it
 *       before any consumer code runs, and nobody will ever read that token. A record that decoded keeps it until
 *       {@link CommandConsumer} has read it.</li>
 * </ul>
 */
public class CommandHeaderScreen implements ConsumerInterceptor<Object, Object> {

    /** What the connector's decoder adds to a record it could not decode. */
    private static final String UNDECODED = "deserialization-failure-reason";

    @Override
    public ConsumerRecords<Object, Object> onConsume(ConsumerRecords<Object, Object> records) {
        for (ConsumerRecord<Object, Object> record : records) {
            Headers headers = record.headers();
            headers.remove(CommandConsumer.ACTOR_HEADER);
            if (record.value() == null || headers.lastHeader(UNDECODED) != null) {
                headers.remove(RecordHeaders.AUTHORIZATION);
            }
        }
        return records;
    }

    @Override
    public void onCommit(Map<TopicPartition, OffsetAndMetadata> offsets) {
        // nothing to screen
    }

    @Override
    public void close() {
        // holds nothing
    }

    @Override
    public void configure(Map<String, ?> configs) {
        // no settings
    }
}
