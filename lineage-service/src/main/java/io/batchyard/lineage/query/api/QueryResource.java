package io.batchyard.lineage.query.api;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.api.access.Caller;
import io.batchyard.lineage.query.NewQuery;
import io.batchyard.lineage.query.QueryFilter;
import io.batchyard.lineage.query.QueryService;
import io.batchyard.lineage.query.QueryType;
import io.batchyard.lineage.query.StoredQuery;
import io.batchyard.lineage.query.TransientRetry;
import io.quarkus.security.identity.SecurityIdentity;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.NotBlank;
import jakarta.validation.constraints.NotNull;
import jakarta.validation.constraints.Pattern;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.PathParam;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;
import java.net.URI;
import java.util.Map;
import java.util.UUID;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** Queries registered by running steps; each is parsed on registration and shows its parse status. */
@RolesAllowed(Roles.VIEWER)
@Path("/queries")
@Produces(MediaType.APPLICATION_JSON)
@Consumes(MediaType.APPLICATION_JSON)
@Tag(name = "queries")
public class QueryResource {

    /**
     * {@code queryId}: optional, makes a retried registration idempotent. {@code variables}: optional values of the
     * script's {@code ${...}} references, keyed {@code x} or {@code hiveconf:x}, {@code hivevar:x}, {@code env:x}.
     */
    public record RegisterQuery(UUID queryId, @NotNull QueryType queryType,
                                @NotBlank @Size(max = 1_000_000) String queryText,
                                @NotNull @Positive Long processId, @Positive Long instanceExecId,
                                @Size(max = 128) @Pattern(regexp = "[A-Za-z0-9_$]*") String defaultDatabase,
                                @Size(max = 1000) Map<@NotNull @Pattern(regexp = VARIABLE_NAME) String,
                                        @NotNull @Size(max = 100_000) String> variables) {
    }

    /** An optional namespace and a name as Hive allows them in {@code ${...}} and {@code SET}. */
    static final String VARIABLE_NAME = "((hiveconf|hivevar|env|system):)?[A-Za-z0-9_.\\-]{1,256}";

    private final QueryService queries;
    private final SecurityIdentity identity;

    public QueryResource(QueryService queries, SecurityIdentity identity) {
        this.queries = queries;
        this.identity = identity;
    }

    @RolesAllowed(Roles.DEVELOPER)
    @POST
    @Operation(summary = "Register a query (HIVE, SQL or PIG) of a process run; it is parsed at once")
    public Uni<Response> register(@Valid @NotNull RegisterQuery r) {
        NewQuery query = new NewQuery(r.queryId(), r.queryType(), r.queryText(), r.processId(), r.instanceExecId(),
                r.defaultDatabase(), r.variables());
        Caller caller = Caller.of(identity);
        return TransientRetry.run(() -> queries.register(caller, query))
                .map(stored -> Response.created(URI.create("/queries/" + stored.id())).entity(stored).build());
    }

    @GET
    @Path("{id}")
    public Uni<StoredQuery> get(@PathParam("id") UUID id) {
        return queries.find(Caller.of(identity), id);
    }

    @GET
    public Uni<Page<StoredQuery>> list(@QueryParam("processId") @Positive Long processId,
                                       @QueryParam("instanceExecId") @Positive Long instanceExecId,
                                       @QueryParam("status") StoredQuery.ParseStatus status,
                                       @Valid @BeanParam PageRequest page) {
        return queries.list(Caller.of(identity), new QueryFilter(processId, instanceExecId, status), page);
    }
}
