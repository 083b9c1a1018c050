# speedmatrix: a static Go binary on a small Debian base.
FROM golang:1.26-bookworm AS build
WORKDIR /src
COPY go.mod go.sum ./
RUN go mod download
COPY . .
RUN CGO_ENABLED=0 go build -trimpath -o /out/speedmatrix ./cmd/speedmatrix

FROM debian:bookworm-slim
RUN apt-get update && apt-get install -y --no-install-recommends ca-certificates \
    && rm -rf /var/lib/apt/lists/* && useradd --system --uid 10001 speedmatrix
COPY --from=build /out/speedmatrix /usr/local/bin/speedmatrix
USER speedmatrix
ENV ADDR=0.0.0.0:8080
EXPOSE 8080
# Healthy when /readyz answers 200 (the database reachable, its schema
# current); the slim image has no curl, so the binary asks itself.
HEALTHCHECK --interval=10s --timeout=3s CMD ["/usr/local/bin/speedmatrix", "health"]
ENTRYPOINT ["/usr/local/bin/speedmatrix"]
CMD ["serve"]
