package io.batchyard.lineage.schema.api;


import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.lineage.LineageError;
import io.batchyard.lineage.schema.TableName;
import io.batchyard.lineage.schema.TableSchema;
import io.batchyard.lineage.schema.TableSchemaService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotEmpty;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.PUT;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.core.MediaType;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Map;
import java.util.TreeMap;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Table schemas: there is no Hive metastore, so the columns of input tables are registered here. */
@RolesAllowed(Roles.VIEWER)
@Path("/tables")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "tables")
public class TableSchemaResource {

    /** {@code types}: optional, column name to its type as the table declares it (for OpenLineage's schema facet). */
    public record Columns(@NotNull @NotEmpty @Size(max = 5000) List<@NotNull String> columns,
                          @Size(max = 5000) Map<@NotNull String, @NotNull @Size(min = 1, max = 500) String> types) {
    }

    private final TableSchemaService schemas;

    public TableSchemaResource(TableSchemaService schemas) {
        this.schemas = schemas;
    }

    @RolesAllowed(Roles.DEVELOPER)
    @PUT
    @Path("{table}")
    @Operation(summary = "Register or replace the ordered columns of db.table")
    public Uni<TableSchema> put(@PathParam("table") String table, @Valid @NotNull Columns body) {
        TableName name = TableName.parse(table);
        List<String> columns = List.copyOf(new LinkedHashSet<>(body.columns().stream().map(TableName::column).toList()));
        Map<String, String> types = new TreeMap<>();
        if (body.types() != null) {
            body.types().forEach((column, type) -> {
                String c = TableName.column(column);
                if (!columns.contains(c)) {
                    throw LineageError.INVALID_NAME.exception("type given for '" + c + "', which is not in columns");
                }
                types.put(c, type.trim());
            });
        }
        return schemas.put(name, columns, types);
    }

    @GET
    @Path("{table}")
    public Uni<TableSchema> get(@PathParam("table") String table) {
        return schemas.get(TableName.parse(table));
    }

    @GET
    public Uni<Page<TableSchema>> list(@Valid @BeanParam PageRequest page) {
        return schemas.list(page);
    }
}
