package io.batchyard.execution.lifecycle.api;

import com.fasterxml.jackson.databind.ObjectMapper;
import jakarta.ws.rs.Consumes;
import jakarta.ws.rs.NotSupportedException;
import jakarta.ws.rs.core.MediaType;
import jakarta.ws.rs.core.MultivaluedMap;
import jakarta.ws.rs.ext.MessageBodyReader;
import jakarta.ws.rs.ext.Provider;
import java.io.IOException;
import java.io.InputStream;
import java.lang.annotation.Annotation;
import java.lang.reflect.Type;

/**
 * TermJob's body is optional. Before it had one, TermJob took any Content-Type (or none): Oozie actions and scripts
 * send whatever their HTTP client defaults to. A bodiless call therefore still goes through whatever it declares,
 * while a body is read as JSON with the service's own strict {@link ObjectMapper}, exactly as Jackson reads the other
 * request types; a body of another type is refused (415).
 */
@Provider
@Consumes(MediaType.WILDCARD)
public class TermJobRequestReader implements MessageBodyReader<LifecycleResource.TermJobRequest> {

    private final ObjectMapper json;

    public TermJobRequestReader(ObjectMapper json) {
        this.json = json;
    }

    @Override
    public boolean isReadable(Class<?> type, Type genericType, Annotation[] annotations, MediaType mediaType) {
        return type == LifecycleResource.TermJobRequest.class;
    }

    @Override
    public LifecycleResource.TermJobRequest readFrom(Class<LifecycleResource.TermJobRequest> type, Type genericType,
                                                     Annotation[] annotations, MediaType mediaType,
                                                     MultivaluedMap<String, String> headers, InputStream body)
            throws IOException {
        byte[] bytes = body.readAllBytes();
        if (bytes.length == 0) {
            return null;
        }
        // No Content-Type arrives here as */*: read as JSON, as for the operations that declare only JSON.
        if (!mediaType.isCompatible(MediaType.APPLICATION_JSON_TYPE)) {
            throw new NotSupportedException("TermJob's body, when there is one, is JSON");
        }
        return json.readValue(bytes, LifecycleResource.TermJobRequest.class);
    }
}
