package io.batchyard.client.kafka;

import io.batchyard.client.TokenSource;
import io.batchyard.client.wire.RegistryWire;
import io.batchyard.events.EventHeader;
import io.batchyard.events.LifecycleCommandType;
import io.batchyard.events.execution.LifecycleCommand;
import java.io.IOException;
import java.nio.ByteBuffer;
import java.nio.charset.StandardCharsets;
import java.time.Duration;
import java.time.Instant;
import java.time.temporal.ChronoUnit;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Properties;
import java.util.UUID;
import java.util.concurrent.ExecutionException;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.TimeoutException;
import org.apache.avro.Schema;
import org.apache.avro.generic.GenericRecord;
import org.apache.kafka.clients.consumer.Consumer;
import org.apache.kafka.clients.consumer.ConsumerConfig;
import org.apache.kafka.clients.consumer.ConsumerRecord;
import org.apache.kafka.clients.consumer.KafkaConsumer;
import org.apache.kafka.clients.producer.KafkaProducer;
import org.apache.kafka.clients.producer.Producer;
import org.apache.kafka.clients.producer.ProducerConfig;
import org.apache.kafka.clients.producer.ProducerRecord;
import org.apache.kafka.common.PartitionInfo;
import org.apache.kafka.common.TopicPartition;
import org.apache.kafka.common.serialization.ByteArrayDeserializer;
import org.apache.kafka.common.serialization.ByteArraySerializer;
import org.apache.kafka.common.serialization.StringSerializer;

/**
 * The six lifecycle calls as Kafka commands: a {@code LifecycleCommand} on {@code batchyard.execution.commands} in the
 * schema registry's wire format, keyed by the process id it names, with the token of the library's
 * {@link TokenSource} in its {@code authorization} header. execution-service applies it exactly like the REST call.
 *
 * <p>Its header's event id is the command's correlation id: execution-service copies it into the correlation id of
 * the lifecycle event the command caused (on {@code batchyard.execution.lifecycle}) or of the
 * {@code CommandRejected} that refused it (on {@code batchyard.execution.rejections}). {@link #send} only sends;
 * {@link #call} and the six named calls also wait for that answer, turning a rejection into a
 * {@link CommandRejectedException} (a {@code ProblemException} with the REST call's code and text).
 *
 * <p>One producer, and for waiting calls one consumer without a group (it reads the two answer topics from their ends
 * as they were just before the command was sent), per instance; waiting calls of one instance run one at a time. Not
 * meant for high rates: a job sends a handful of commands per run.
 */
public final class LifecycleCommands implements AutoCloseable {

    public static final String COMMANDS = "batchyard.execution.commands";
    public static final String LIFECYCLE = "batchyard.execution.lifecycle";
    public static final String REJECTIONS = "batchyard.execution.rejections";
    static final String PRODUCER = "batchyard-client-kafka";

    private final KafkaSettings settings;
    private final RegistryWire wire;
    private volatile Producer<String, byte[]> producer;
    private Consumer<byte[], byte[]> consumer;

    public LifecycleCommands(KafkaSettings settings) {
        this.settings = settings;
        this.wire = new RegistryWire(settings.registryUrl(), settings.timeout());
    }

    /** Starts a run of the parent; waits for its JobStarted ({@code instanceExecId}, {@code targetBatchId}, …). */
    public CommandOutcome initJob(long processId, Integer maxBatch) {
        return call(Command.initJob(processId, maxBatch), settings.timeout());
    }

    /** Starts the step's run; waits for its StepStarted. */
    public CommandOutcome initStep(long subProcessId) {
        return call(Command.initStep(subProcessId), settings.timeout());
    }

    /** Ends the step's run successfully; waits for its StepHalted. */
    public CommandOutcome haltStep(long subProcessId) {
        return call(Command.haltStep(subProcessId), settings.timeout());
    }

    /** Ends the step's run as failed; waits for its StepFailed. */
    public CommandOutcome termStep(long subProcessId) {
        return call(Command.termStep(subProcessId), settings.timeout());
    }

    /** Ends the parent's run successfully; waits for its JobHalted. */
    public CommandOutcome haltJob(long processId, String batchMarking) {
        return call(Command.haltJob(processId, batchMarking), settings.timeout());
    }

    /** Ends the parent's run as failed; waits for its JobFailed. */
    public CommandOutcome termJob(long processId, Integer errorCode, String errorText) {
        return call(Command.termJob(processId, errorCode, errorText), settings.timeout());
    }

    /**
     * Sends the command and returns its correlation id once the broker has it, without waiting for its effect.
     *
     * @throws IllegalStateException when the registry or the broker does not take it within the timeout
     */
    public String send(Command command) {
        String correlation = UUID.randomUUID().toString();
        send(command, correlation);
        return correlation;
    }

    /**
     * Sends the command and waits for its answer.
     *
     * @throws CommandRejectedException when execution-service refused it
     * @throws CommandTimeoutException when neither its event nor its rejection came within {@code timeout}
     */
    public synchronized CommandOutcome call(Command command, Duration timeout) {
        Consumer<byte[], byte[]> answers = answers();
        // From the ends as they are now: the answer cannot come before the command is sent.
        answers.seekToEnd(answers.assignment());
        answers.assignment().forEach(answers::position);
        String correlation = send(command);
        long deadline = System.nanoTime() + timeout.toNanos();
        try {
            while (System.nanoTime() - deadline < 0) {
                Duration left = Duration.ofNanos(deadline - System.nanoTime());
                for (ConsumerRecord<byte[], byte[]> r : answers.poll(left.compareTo(Duration.ofMillis(500)) < 0
                        ? left : Duration.ofMillis(500))) {
                    GenericRecord event = wire.read(r.value(), settings.timeout());
                    if (event == null || !(event.get("header") instanceof GenericRecord header)
                            || header.get("correlationId") == null
                            || !correlation.equals(header.get("correlationId").toString())) {
                        continue;
                    }
                    String type = event.getSchema().getName();
                    if (REJECTIONS.equals(r.topic()) || "CommandRejected".equals(type)) {
                        throw rejection(command.type(), correlation, event);
                    }
                    if (type.equals(command.type().answeredBy())) {
                        return new CommandOutcome(correlation, type, fields(event));
                    }
                }
            }
        } catch (IOException e) {
            throw new IllegalStateException("reading the answer to " + command.type() + " failed: " + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while waiting for the answer to " + command.type(), e);
        }
        throw new CommandTimeoutException(command.type(), correlation, timeout);
    }

    static CommandRejectedException rejection(Command.Type command, String correlation, GenericRecord rejected) {
        // execution-service writes "<title>: <detail>", like the REST problem's title and detail.
        String message = String.valueOf(rejected.get("message"));
        int colon = message.indexOf(": ");
        return new CommandRejectedException(command, correlation, ((Number) rejected.get("code")).intValue(),
                colon < 0 ? null : message.substring(0, colon), colon < 0 ? message : message.substring(colon + 2));
    }

    private static Map<String, Object> fields(GenericRecord event) {
        Map<String, Object> fields = new LinkedHashMap<>();
        for (Schema.Field f : event.getSchema().getFields()) {
            if (f.name().equals("header")) {
                continue;
            }
            Object v = event.get(f.pos());
            fields.put(f.name(), v instanceof CharSequence || v instanceof GenericRecord
                    || v instanceof org.apache.avro.generic.GenericEnumSymbol<?> ? v.toString() : v);
        }
        return fields;
    }

    private void send(Command command, String correlation) {
        LifecycleCommand record = record(command, correlation);
        try {
            byte[] value = wire.frame(COMMANDS, record, settings.timeout());
            ProducerRecord<String, byte[]> out = new ProducerRecord<>(COMMANDS, String.valueOf(command.processId()),
                    value);
            out.headers().add("authorization", ("Bearer " + settings.tokens().token())
                    .getBytes(StandardCharsets.UTF_8));
            out.headers().add("event-type", "LifecycleCommand".getBytes(StandardCharsets.UTF_8));
            out.headers().add("event-id", uuidBytes(UUID.fromString(correlation)));
            producer().send(out).get(settings.timeout().toMillis(), TimeUnit.MILLISECONDS);
        } catch (IOException | ExecutionException | TimeoutException e) {
            throw new IllegalStateException(command.type() + " was not sent to " + settings.bootstrapServers() + ": "
                    + e, e);
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IllegalStateException("interrupted while sending " + command.type(), e);
        }
    }

    static LifecycleCommand record(Command command, String correlation) {
        EventHeader header = EventHeader.newBuilder().setEventId(correlation)
                .setOccurredAt(Instant.now().truncatedTo(ChronoUnit.MILLIS)).setProducer(PRODUCER).build();
        return LifecycleCommand.newBuilder().setHeader(header)
                .setCommand(LifecycleCommandType.valueOf(command.type().name())).setProcessId(command.processId())
                .setMaxBatch(command.maxBatch()).setBatchMarking(command.batchMarking())
                .setErrorCode(command.errorCode()).setErrorText(command.errorText()).build();
    }

    private Producer<String, byte[]> producer() {
        Producer<String, byte[]> p = producer;
        if (p == null) {
            synchronized (this) {
                if (producer == null) {
                    producer = new KafkaProducer<>(producerConfig(), new StringSerializer(), new ByteArraySerializer());
                }
                p = producer;
            }
        }
        return p;
    }

    private Properties producerConfig() {
        Properties config = new Properties();
        config.putAll(settings.kafka());
        String timeout = String.valueOf(Math.min(Integer.MAX_VALUE, settings.timeout().toMillis()));
        config.put(ProducerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
        config.putIfAbsent(ProducerConfig.CLIENT_ID_CONFIG, PRODUCER);
        config.put(ProducerConfig.ACKS_CONFIG, "all");
        config.put(ProducerConfig.ENABLE_IDEMPOTENCE_CONFIG, "true");
        config.put(ProducerConfig.MAX_BLOCK_MS_CONFIG, timeout);
        config.put(ProducerConfig.REQUEST_TIMEOUT_MS_CONFIG, timeout);
        config.put(ProducerConfig.DELIVERY_TIMEOUT_MS_CONFIG, timeout);
        config.put(ProducerConfig.LINGER_MS_CONFIG, "0");
        // No native codecs ship with the client.
        config.put(ProducerConfig.COMPRESSION_TYPE_CONFIG, "none");
        return config;
    }

    /** Assigned (no group, nothing committed) to every partition of the two answer topics. */
    private Consumer<byte[], byte[]> answers() {
        if (consumer == null) {
            Properties config = new Properties();
            config.putAll(settings.kafka());
            config.put(ConsumerConfig.BOOTSTRAP_SERVERS_CONFIG, settings.bootstrapServers());
            config.putIfAbsent(ConsumerConfig.CLIENT_ID_CONFIG, PRODUCER + "-answers");
            config.put(ConsumerConfig.ENABLE_AUTO_COMMIT_CONFIG, "false");
            config.put(ConsumerConfig.DEFAULT_API_TIMEOUT_MS_CONFIG,
                    String.valueOf(Math.min(Integer.MAX_VALUE, settings.timeout().toMillis())));
            Consumer<byte[], byte[]> c = new KafkaConsumer<>(config, new ByteArrayDeserializer(),
                    new ByteArrayDeserializer());
            List<TopicPartition> partitions = new ArrayList<>();
            for (String topic : List.of(LIFECYCLE, REJECTIONS)) {
                List<PartitionInfo> infos = c.partitionsFor(topic, settings.timeout());
                if (infos == null || infos.isEmpty()) {
                    c.close();
                    throw new IllegalStateException("topic " + topic + " does not exist on "
                            + settings.bootstrapServers());
                }
                infos.forEach(p -> partitions.add(new TopicPartition(p.topic(), p.partition())));
            }
            c.assign(partitions);
            consumer = c;
        }
        return consumer;
    }

    private static byte[] uuidBytes(UUID id) {
        return ByteBuffer.allocate(16).putLong(id.getMostSignificantBits()).putLong(id.getLeastSignificantBits())
                .array();
    }

    @Override
    public synchronized void close() {
        if (producer != null) {
            producer.close(settings.timeout());
        }
        if (consumer != null) {
            consumer.close(settings.timeout());
        }
    }
}
