package io.batchyard.audit.api;

import static io.batchyard.api.CommonErrors.INVALID_REQUEST;

import io.batchyard.api.Page;
import io.batchyard.api.PageRequest;
import io.batchyard.api.Roles;
import io.batchyard.audit.AuditEntry;
import io.batchyard.audit.AuditFilter;
import io.batchyard.audit.AuditService;
import io.smallrye.mutiny.Uni;
import jakarta.annotation.security.RolesAllowed;
import jakarta.validation.Valid;
import jakarta.validation.constraints.Positive;
import jakarta.validation.constraints.Size;
import jakarta.ws.rs.BeanParam;
import jakarta.ws.rs.GET;
import jakarta.ws.rs.Path;
import jakarta.ws.rs.Produces;
import jakarta.ws.rs.QueryParam;
import jakarta.ws.rs.core.MediaType;
import java.time.Instant;
import java.time.format.DateTimeParseException;
import org.eclipse.microprofile.openapi.annotations.Operation;
import org.eclipse.microprofile.openapi.annotations.tags.Tag;

/** This service's audit trail: who changed what, when, and how it ended. Administrators only. */
@RolesAllowed(Roles.ADMIN)
@Path("/audit")
@Produces(MediaType.APPLICATION_JSON)
@Tag(name = "audit")
public class AuditResource {

    private final AuditService audit;

    public AuditResource(AuditService audit) {
        this.audit = audit;
    }

    @GET
    @Operation(summary = "Audited calls and commands, newest first; filtered by subject, process and time "
            + "(ISO-8601 instants, from inclusive, to exclusive) and paged")
    public Uni<Page<AuditEntry>> list(@Valid @BeanParam PageRequest page,
                                      @QueryParam("subject") @Size(max = 255) String subject,
                                      @QueryParam("processId") @Positive Long processId,
                                      @QueryParam("from") String from, @QueryParam("to") String to) {
        return audit.list(new AuditFilter(subject, processId, instant("from", from), instant("to", to)),
                page.limit(), page.offset());
    }

    private static Instant instant(String name, String value) {
        if (value == null || value.isBlank()) {
            return null;
        }
        try {
            return Instant.parse(value);
        } catch (DateTimeParseException e) {
            throw INVALID_REQUEST.exception(name + " must be an ISO-8601 instant such as 2026-01-31T12:00:00Z, got '"
                    + value + "'");
        }
    }
}
