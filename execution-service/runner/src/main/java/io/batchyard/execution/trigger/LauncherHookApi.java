package io.batchyard.execution.trigger;

import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.POST;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.Response;

/**
 * The orchestrator's launch endpoint of the {@code http} launcher hook: the whole configured URL, posted to as it is
 * ({@link ExternalLauncher} builds the client with that URL as its base).
 */
public interface LauncherHookApi {

    /** The launch request's JSON; any 2xx answer is a launch. */
    @POST
    @Consumes(MediaType.APPLICATION_JSON)
    Response launch(String request);
}
