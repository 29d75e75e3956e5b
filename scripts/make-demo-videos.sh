#!/usr/bin/env bash
# Writes the demo videos of demo mode (issue 10) and their posters into
# server/src/domain/content/demo/media/. Run once by hand (needs ffmpeg with libx264 and the Noto CJK
# fonts: `apt-get install ffmpeg fonts-noto-cjk`); the outputs are committed, so a fresh machine
# needs neither. Each is a few seconds of a title card with a moving shape, plainly marked 演示:
# the product has no real health videos to ship, and says so.
set -euo pipefail
cd "$(dirname "$0")/../server/src/domain/content/demo/media"
FONT=/usr/share/fonts/opentype/noto/NotoSansCJK-Bold.ttc

# The title card both the video and its poster show: the title near the top and 演示视频 near the
# bottom, so the player's centred play button and length (H5 and WeChat) cover neither.
card() { # title
  echo "drawtext=fontfile=${FONT}:text='$1':fontsize=40:fontcolor=white:x=(w-tw)/2:y=56,\
drawtext=fontfile=${FONT}:text='演示视频':fontsize=24:fontcolor=white@0.85:x=(w-tw)/2:y=296"
}

make() { # name, background colour, title, seconds
  local name=$1 colour=$2 title=$3 seconds=$4
  # The video: the card with a moving square and a seconds counter, so playing visibly moves.
  ffmpeg -y -loglevel error \
    -f lavfi -i "color=c=${colour}:s=640x360:r=25:d=${seconds}" \
    -vf "drawbox=x='mod(t*120,640)':y=250:w=60:h=60:color=white@0.6:t=fill,$(card "${title}"),\
drawtext=fontfile=${FONT}:text='%{eif\:t\:d} 秒':fontsize=20:fontcolor=white@0.8:x=20:y=20" \
    -c:v libx264 -profile:v main -pix_fmt yuv420p -crf 30 -preset slow -movflags +faststart \
    "${name}.mp4"
  # The poster: the card alone. A frame of the video would carry the counter (1 秒) and the square,
  # which the app's duration badge then sits on.
  ffmpeg -y -loglevel error -f lavfi -i "color=c=${colour}:s=640x360:d=1" \
    -vf "$(card "${title}")" -frames:v 1 -q:v 5 "${name}.jpg"
}

make talk-ct 0x0DB4AA '做 CT 前要准备什么' 6
make talk-nodule 0x2F6FB3 '体检发现肺结节怎么办' 6
make firstaid-cpr 0xC0392B '心肺复苏的要点' 5
make firstaid-choke 0xD35400 '海姆立克急救法' 5
make diet-congee 0x7D9A3C '山药小米粥' 5
ls -l
