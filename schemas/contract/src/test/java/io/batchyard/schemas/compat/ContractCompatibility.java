package io.batchyard.schemas.compat;

import io.batchyard.schemas.ReleasedSchemas;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.LinkedHashMap;
import java.util.List;
import java.util.Map;
import java.util.Set;
import java.util.TreeMap;
import java.util.stream.Stream;
import org.apache.avro.AvroRuntimeException;
import org.apache.avro.Schema;
import org.apache.avro.SchemaCompatibility;
import org.apache.avro.SchemaCompatibility.Incompatibility;

/**
 * FULL_TRANSITIVE check of the contract: every named schema of the current {@code .avsc} files against the schema
 * of the same full name in every released version, in both directions. Lives in test code because only the build
 * runs it; nothing at runtime needs it.
 */
public final class ContractCompatibility {

    /** Which side is the reader, in rolling-deploy terms. */
    public enum Direction {
        NEW_READER_OLD_DATA("new reader reads %s data"),
        OLD_READER_NEW_DATA("%s reader reads new data");

        private final String phrase;

        Direction(String phrase) {
            this.phrase = phrase;
        }
    }

    /** One reason a release could not be rolled out; {@code field} is a dotted path when Avro's location names one. */
    public record Problem(String schema, String version, Direction direction, String field, String message) {
        @Override
        public String toString() {
            return schema + " vs released " + version + ", " + direction.phrase.formatted(version)
                    + (field == null ? "" : ", field " + field) + ": " + message;
        }
    }

    private ContractCompatibility() {
    }

    /**
     * @param current      folder of the current {@code .avsc} files (e.g. {@code src/main/avro})
     * @param releasedRoot folder with one sub-folder per released version (e.g. {@code src/main/avro-released})
     * @param retired      full names of schemas deliberately removed since a release
     */
    public static List<Problem> check(Path current, Path releasedRoot, Set<String> retired) {
        Map<String, Schema> now = parse(current);
        List<Problem> problems = new ArrayList<>();
        releasedVersions(releasedRoot).forEach((version, folder) -> parse(folder).forEach((name, old) -> {
            Schema mine = now.get(name);
            if (mine == null) {
                if (!retired.contains(name)) {
                    problems.add(new Problem(name, version, Direction.OLD_READER_NEW_DATA, null,
                            "removed since the release and not listed as retired"));
                }
                return;
            }
            compare(name, version, Direction.NEW_READER_OLD_DATA, mine, old, problems);
            compare(name, version, Direction.OLD_READER_NEW_DATA, old, mine, problems);
        }));
        return problems;
    }

    /** Released version folders, by name; an empty root would make the check vacuous, so it is an error. */
    public static Map<String, Path> releasedVersions(Path releasedRoot) {
        Map<String, Path> versions = new TreeMap<>();
        try (Stream<Path> children = Files.list(releasedRoot)) {
            children.filter(Files::isDirectory).forEach(dir -> versions.put(dir.getFileName().toString(), dir));
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        if (versions.isEmpty()) {
            throw new IllegalStateException("no released version under " + releasedRoot);
        }
        return versions;
    }

    /**
     * Full name to schema of every top-level schema of every {@code .avsc} under {@code folder}. Files reference each
     * other by full name (events embed {@code io.batchyard.events.EventHeader}), so a file that names a type not yet
     * known is retried once more types are known; each attempt gets a fresh parser seeded with the known types,
     * because a failed parse may leave a half-defined record behind in its parser.
     */
    public static Map<String, Schema> parse(Path folder) {
        Map<String, String> texts = new TreeMap<>();
        try (Stream<Path> files = Files.walk(folder)) {
            for (Path file : files.filter(f -> f.toString().endsWith(".avsc")).sorted().toList()) {
                texts.put(folder.relativize(file).toString(), Files.readString(file));
            }
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
        return ReleasedSchemas.parse(texts);
    }

    private static void compare(String name, String version, Direction direction, Schema reader, Schema writer,
            List<Problem> problems) {
        SchemaCompatibility.SchemaPairCompatibility result =
                SchemaCompatibility.checkReaderWriterCompatibility(reader, writer);
        for (Incompatibility incompatibility : result.getResult().getIncompatibilities()) {
            problems.add(new Problem(name, version, direction, fieldPath(reader, incompatibility.getLocation()),
                    incompatibility.getType() + " at " + incompatibility.getLocation() + ": "
                            + incompatibility.getMessage()));
        }
    }

    /**
     * Turns Avro's location ({@code /fields/3/type/1/...}, indexes into the reader schema) into a dotted field path,
     * so a report names the field instead of its position; null when the location names no field.
     */
    static String fieldPath(Schema reader, String location) {
        List<String> names = new ArrayList<>();
        Schema schema = reader;
        String[] steps = location.split("/");
        for (int i = 0; i < steps.length && schema != null; i++) {
            String step = steps[i];
            if (step.equals("fields") && i + 1 < steps.length && schema.getType() == Schema.Type.RECORD) {
                Schema.Field field = schema.getFields().get(Integer.parseInt(steps[++i]));
                names.add(field.name());
                schema = field.schema();
            } else if (step.equals("items") && schema.getType() == Schema.Type.ARRAY) {
                schema = schema.getElementType();
            } else if (step.equals("values") && schema.getType() == Schema.Type.MAP) {
                schema = schema.getValueType();
            } else if (step.matches("\\d+") && schema.getType() == Schema.Type.UNION) {
                schema = schema.getTypes().get(Integer.parseInt(step));
            } else if (!step.isEmpty() && !step.equals("type")) {
                break;
            }
        }
        return names.isEmpty() ? null : String.join(".", names);
    }
}
