# Muster's live service in a container: Node 20 and ffmpeg (cameras, video files), the workspace installed
# with `npm ci`, the views built once. The data directory is a volume; options come from MUSTER_*
# variables, a config file in the volume (/data/muster.yaml) or arguments after the image name.
#
#   docker build -t muster .
#   docker run --rm -p 8080:8080 -v muster-data:/data muster                      # the demo battle
#   docker run --rm -p 8080:8080 -v muster-data:/data \
#     --device /dev/video0 --group-add "$(getent group video | cut -d: -f3)" \
#     muster --camera /dev/video0 --table /data/my-table.json --roster /data/army.yaml
#
# The README's "At a convention" section has the details (https for phones, several tables).
FROM node:20-bookworm-slim

RUN apt-get update \
  && apt-get install -y --no-install-recommends ffmpeg \
  && rm -rf /var/lib/apt/lists/*

WORKDIR /opt/muster
COPY . .
RUN npm ci --no-audit --no-fund
RUN npm run build -w @muster/overlay \
  && mkdir -p /data && chown node:node /data

# Bound to every address inside the container (Docker's port mapping decides who reaches it), the data
# directory in the volume, JSON log lines for `docker logs` and log collectors.
ENV MUSTER_HOST=0.0.0.0 \
    MUSTER_PORT=8080 \
    MUSTER_DATA=/data \
    MUSTER_LOG_FORMAT=json \
    NODE_ENV=production
VOLUME ["/data"]
EXPOSE 8080
USER node

HEALTHCHECK --interval=30s --timeout=5s --start-period=60s --retries=3 CMD ["node", "deploy/healthcheck.mjs"]
ENTRYPOINT ["node", "apps/server/bin/muster.js", "start"]
