package io.batchyard.teststack.fuzz;

import io.batchyard.teststack.identity.Identity;

import java.io.ByteArrayOutputStream;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.Socket;
import java.nio.charset.StandardCharsets;
import java.util.LinkedHashMap;
import java.util.Locale;
import java.util.Map;

/**
 * HTTP/1.1 over a plain socket, one connection per request. A fuzzer needs what a well-behaved client refuses to send:
 * malformed percent-encoding, raw matrix parameters, a missing or lying Content-Type, a declared length it never sends.
 */
final class RawHttp {

    record Request(String method, String target, Map<String, String> headers, byte[] body) {

        String describe() {
            String text = body == null ? "" : new String(body, 0, Math.min(body.length, 200), StandardCharsets.UTF_8);
            String target = this.target.length() > 200 ? this.target.substring(0, 200) + "…(" + this.target.length() + ")"
                    : this.target;
            return method + " " + target + " " + headers + (text.isEmpty() ? "" : " body=" + text.replace("\0", "\\0")
                    + (body.length > 200 ? "…(" + body.length + " bytes)" : ""));
        }
    }

    record Response(int status, Map<String, String> headers, String body) {

        String header(String name) {
            return headers.get(name.toLowerCase(Locale.ROOT));
        }
    }

    private final String host;
    private final int port;

    RawHttp(String host, int port) {
        this.host = host;
        this.port = port;
    }

    Response send(Request request) throws IOException {
        try (Socket socket = new Socket()) {
            socket.connect(new InetSocketAddress(host, port), 5_000);
            socket.setSoTimeout(30_000);
            StringBuilder head = new StringBuilder();
            head.append(request.method()).append(' ').append(request.target()).append(" HTTP/1.1\r\n");
            head.append("Host: ").append(host).append(':').append(port).append("\r\n");
            head.append("Connection: close\r\n");
            request.headers().forEach((k, v) -> head.append(k).append(": ").append(v).append("\r\n"));
            if (request.headers().keySet().stream().noneMatch("Authorization"::equalsIgnoreCase)) {
                // The fuzzer probes what a signed-in caller can break; anonymous callers stop at 401.
                head.append("Authorization: Bearer ").append(Identity.get().adminToken()).append("\r\n");
            }
            if (request.body() != null && !request.headers().containsKey("Content-Length")) {
                head.append("Content-Length: ").append(request.body().length).append("\r\n");
            }
            head.append("\r\n");
            OutputStream out = socket.getOutputStream();
            try {
                out.write(head.toString().getBytes(StandardCharsets.UTF_8));
                if (request.body() != null) {
                    out.write(request.body());
                }
                out.flush();
            } catch (IOException writeFailed) {
                // The server may answer and close before reading everything (413): its answer is still there.
            }
            return read(socket.getInputStream());
        }
    }

    /** Reads one response, stopping at its declared end: the server may keep the connection open after it. */
    private static Response read(InputStream raw) throws IOException {
        java.io.BufferedInputStream in = new java.io.BufferedInputStream(raw);
        String statusLine = line(in);
        if (statusLine == null || !statusLine.startsWith("HTTP/")) {
            throw new IOException("no HTTP response (" + statusLine + ")");
        }
        int status = Integer.parseInt(statusLine.split(" ")[1]);
        Map<String, String> headers = new LinkedHashMap<>();
        for (String line = line(in); line != null && !line.isEmpty(); line = line(in)) {
            int colon = line.indexOf(':');
            if (colon > 0) {
                headers.put(line.substring(0, colon).trim().toLowerCase(Locale.ROOT), line.substring(colon + 1).trim());
            }
        }
        byte[] body;
        if ("chunked".equalsIgnoreCase(headers.get("transfer-encoding"))) {
            ByteArrayOutputStream out = new ByteArrayOutputStream();
            for (int size = chunkSize(line(in)); size > 0; size = chunkSize(line(in))) {
                out.write(in.readNBytes(size));
                line(in);
            }
            body = out.toByteArray();
        } else if (headers.containsKey("content-length")) {
            body = in.readNBytes(Integer.parseInt(headers.get("content-length")));
        } else {
            body = in.readAllBytes();
        }
        return new Response(status, headers, new String(body, StandardCharsets.UTF_8));
    }

    private static int chunkSize(String line) {
        return line == null || line.isBlank() ? 0 : Integer.parseInt(line.split(";")[0].trim(), 16);
    }

    private static String line(InputStream in) throws IOException {
        ByteArrayOutputStream line = new ByteArrayOutputStream();
        for (int b = in.read(); b != -1; b = in.read()) {
            if (b == '\n') {
                byte[] bytes = line.toByteArray();
                int length = bytes.length > 0 && bytes[bytes.length - 1] == '\r' ? bytes.length - 1 : bytes.length;
                return new String(bytes, 0, length, StandardCharsets.ISO_8859_1);
            }
            line.write(b);
        }
        return line.size() == 0 ? null : line.toString(StandardCharsets.ISO_8859_1);
    }
}
