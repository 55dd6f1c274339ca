package io.batchyard.schemas.compat;

import static org.assertj.core.api.Assertions.assertThat;

import io.batchyard.schemas.EventCatalog;
import io.batchyard.schemas.compat.ContractCompatibility.Direction;
import io.batchyard.schemas.compat.ContractCompatibility.Problem;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.stream.Stream;
import org.apache.avro.Schema;
import org.apache.avro.SchemaNormalization;
import org.apache.avro.specific.SpecificData;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The build-time gate of schema evolution (FULL_TRANSITIVE): the current contract must be readable by, and able to
 * read, every released version. Surefire runs with the module folder as working directory.
 */
class ContractCompatibilityTest {

    /** Full names of event types removed on purpose since a release; empty: nothing has been retired yet. */
    static final Set<String> RETIRED = Set.of();

    private static final Path CURRENT = Path.of("src/main/avro");
    private static final Path RELEASED = Path.of("src/main/avro-released");
    private static final Path FIXTURES = Path.of("src/test/resources/compat");

    @Test
    void currentContractIsFullyCompatibleWithEveryReleasedVersion() {
        List<Problem> problems = ContractCompatibility.check(CURRENT, RELEASED, RETIRED);

        assertThat(problems).as("breaking schema changes; see schemas/README.md, Evolving a schema")
                .extracting(Problem::toString).isEmpty();
    }

    @Test
    void theCheckCoversEveryCataloguedEventAndAtLeastOneRelease() {
        Map<String, Schema> current = ContractCompatibility.parse(CURRENT);

        assertThat(ContractCompatibility.releasedVersions(RELEASED)).containsKey("0.1.0");
        for (var type : EventCatalog.EVENT_TYPES) {
            Schema generated = SpecificData.get().getSchema(type);
            // Same fingerprint as the generated class: the files the check reads are the ones the build compiled.
            assertThat(current).containsKey(generated.getFullName());
            assertThat(SchemaNormalization.parsingFingerprint64(current.get(generated.getFullName())))
                    .as(generated.getFullName()).isEqualTo(EventCatalog.fingerprint(type));
        }
        // Every released type is still catalogued (or retired on purpose); a type added since the last release has no
        // older reader or writer to be compatible with, so it is checked from the first release that ships it.
        assertThat(EventCatalog.EVENT_TYPES.stream().map(t -> SpecificData.get().getSchema(t).getFullName()).toList())
                .containsAll(releasedEventTypes());
    }

    @Test
    void aBreakingChangeToTheSharedHeaderFailsTheRealContractForEveryEvent(@TempDir Path copy) throws IOException {
        try (Stream<Path> files = Files.walk(CURRENT)) {
            for (Path file : files.filter(Files::isRegularFile).toList()) {
                Path target = copy.resolve(CURRENT.relativize(file).toString());
                Files.createDirectories(target.getParent());
                Files.copy(file, target);
            }
        }
        Path header = copy.resolve("common/EventHeader.avsc");
        String json = Files.readString(header);
        Files.writeString(header, json.replace("\"fields\": [", "\"fields\": [{\"name\": \"tenant\", \"type\": \"string\"},"));

        List<Problem> problems = ContractCompatibility.check(copy, RELEASED, RETIRED);

        assertThat(problems).extracting(Problem::schema)
                .contains("io.batchyard.events.EventHeader", "io.batchyard.events.queue.BatchEnqueued")
                .containsAll(releasedEventTypes());
        assertThat(problems).allSatisfy(p -> {
            assertThat(p.direction()).isEqualTo(Direction.NEW_READER_OLD_DATA);
            assertThat(p.field()).isEqualTo(p.schema().equals("io.batchyard.events.EventHeader") ? "tenant" : "header.tenant");
        });
    }

    @Test
    void fieldAddedWithoutDefaultBreaksNewReadersOfOldData() {
        List<Problem> problems = fixture("added-field-without-default");

        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.schema()).isEqualTo("io.fixture.app.Thing");
            assertThat(p.version()).isEqualTo("0.1.0");
            assertThat(p.direction()).isEqualTo(Direction.NEW_READER_OLD_DATA);
            assertThat(p.field()).isEqualTo("priority");
            assertThat(p.message()).contains("READER_FIELD_MISSING_DEFAULT");
        });
    }

    @Test
    void fieldTypeChangedBreaksBothDirections() {
        List<Problem> problems = fixture("type-changed");

        assertThat(problems).extracting(Problem::direction)
                .containsExactlyInAnyOrder(Direction.NEW_READER_OLD_DATA, Direction.OLD_READER_NEW_DATA);
        assertThat(problems).allSatisfy(p -> {
            assertThat(p.schema()).isEqualTo("io.fixture.app.Thing");
            assertThat(p.field()).isEqualTo("count");
            assertThat(p.message()).contains("TYPE_MISMATCH");
        });
        assertThat(problems.get(0).toString()).contains("io.fixture.app.Thing", "0.1.0", "field count");
    }

    @Test
    void fieldRemovedWithoutDefaultBreaksOldReadersOfNewData() {
        List<Problem> problems = fixture("field-removed");

        assertThat(problems).singleElement().satisfies(p -> {
            assertThat(p.direction()).isEqualTo(Direction.OLD_READER_NEW_DATA);
            assertThat(p.field()).isEqualTo("note");
            assertThat(p.message()).contains("READER_FIELD_MISSING_DEFAULT");
        });
    }

    @Test
    void removedEventTypeIsReportedUnlessRetired() {
        Path current = FIXTURES.resolve("event-removed");
        Path released = FIXTURES.resolve("released");

        assertThat(ContractCompatibility.check(current, released, Set.of())).singleElement().satisfies(p -> {
            assertThat(p.schema()).isEqualTo("io.fixture.app.Other");
            assertThat(p.message()).contains("removed");
        });
        assertThat(ContractCompatibility.check(current, released, Set.of("io.fixture.app.Other"))).isEmpty();
    }

    @Test
    void optionalFieldsWithDefaultsOnAnEventAndOnTheSharedHeaderAreCompatible() {
        assertThat(fixture("optional-field-added")).isEmpty();
    }

    private static List<Problem> fixture(String change) {
        return ContractCompatibility.check(FIXTURES.resolve(change), FIXTURES.resolve("released"), Set.of());
    }

    /** Event types of release 0.1.0 that are not retired: records with a header first (shared types have none). */
    private static List<String> releasedEventTypes() {
        return ContractCompatibility.parse(RELEASED.resolve("0.1.0")).values().stream()
                .filter(s -> s.getType() == Schema.Type.RECORD && !s.getFields().isEmpty()
                        && s.getFields().get(0).name().equals("header") && !RETIRED.contains(s.getFullName()))
                .map(Schema::getFullName).toList();
    }
}
