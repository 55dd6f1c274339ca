package io.batchyard.schemas.kafka;

import io.apicurio.registry.serde.avro.AvroDatumProvider;
import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.EventCodec;
import io.batchyard.schemas.EventCodec.UnknownEventException;
import java.util.Map;
import java.util.concurrent.ConcurrentHashMap;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.io.DatumReader;
import org.apache.avro.io.DatumWriter;
import org.apache.avro.specific.SpecificData;
import org.apache.avro.specific.SpecificDatumReader;
import org.apache.avro.specific.SpecificDatumWriter;
import org.apache.avro.specific.SpecificRecord;

/**
 * Reads every record into today's generated class of the contract, whatever version of the schema wrote it (the
 * registry hands over the writer schema by the record's id; a field added since takes its default, a field removed
 * since is skipped), and refuses a record type the contract does not have.
 *
 * <p>The serde's own specific reader finds the class through the thread context class loader, which on a Kafka
 * consumer thread inside a Quarkus application is not the one that loaded the contract; the catalog names the class
 * and {@link EventCodec#modelFor} binds the model to that class's own loader.
 */
public class CatalogDatumProvider implements AvroDatumProvider<SpecificRecord> {

    private final Map<Long, DatumReader<SpecificRecord>> readers = new ConcurrentHashMap<>();
    private final Map<Class<?>, DatumWriter<SpecificRecord>> writers = new ConcurrentHashMap<>();

    @Override
    public DatumWriter<SpecificRecord> createDatumWriter(SpecificRecord data, Schema schema) {
        return writers.computeIfAbsent(data.getClass(),
                type -> new SpecificDatumWriter<>(schema, EventCodec.modelFor(type)));
    }

    @Override
    public DatumReader<SpecificRecord> createDatumReader(Schema writer) {
        return readers.computeIfAbsent(SchemaNormalization.parsingFingerprint64(writer), fingerprint -> {
            Class<? extends SpecificRecord> type = EventCatalog.byFullName(writer.getFullName())
                    .orElseThrow(() -> new UnknownEventException("not an event of the contract: " + writer.getFullName()));
            SpecificData model = EventCodec.modelFor(type);
            return new SpecificDatumReader<>(writer, model.getSchema(type), model);
        });
    }

    @Override
    public Schema toSchema(SpecificRecord data) {
        return data.getSchema();
    }
}
