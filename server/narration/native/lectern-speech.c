/*
 * lectern-speech: eSpeak NG and LAME as native code, for the narration pipeline (server/narration/native.ts).
 *
 * The same two steps as the portable pipeline (espeak.ts, mp3.ts), with the system's libespeak-ng and libmp3lame
 * instead of their JavaScript and WASM builds. It is built only where both libraries and their headers are
 * installed (Debian: libespeak-ng-dev, libmp3lame-dev); elsewhere the portable pipeline narrates.
 *
 * One process serves one thread of the server for its whole life. It reads requests on stdin and answers each on
 * stdout, in order; every integer is little-endian.
 *
 *   'S' synthesize: u16 voice length, voice (UTF-8), u32 rate (words per minute), u32 text length, text (UTF-8)
 *       -> u8 0, u32 sample count, that many i16 samples (mono, espeak's rate), u32 event count, and per event
 *          four i32: type (1 word, 5 end of clause), 1-based character position, length in characters, time in ms
 *   'E' encode: u32 input rate, u32 output rate, u32 kbps, u32 sample count, that many i16 samples
 *       -> u8 0, u32 byte count, the MP3 (constant bitrate, mono, no Xing/Info frame, no ID3 tag)
 *   'R' ready: -> u8 0, u32 espeak's sample rate
 *
 * `lectern-speech --version` prints the two libraries' versions as JSON and exits (the build records it).
 *
 * A request that fails is answered u8 1, u32 length, a message (UTF-8). End of input ends the process.
 */
#include <espeak-ng/speak_lib.h>
#include <lame/lame.h>
#include <stdint.h>
#include <stdio.h>
#include <stdlib.h>
#include <string.h>

static int espeak_rate = 0;

/* Growing buffers, kept from one request to the next. */
typedef struct {
  unsigned char *data;
  size_t size;
  size_t capacity;
} buffer;

static void reserve(buffer *b, size_t extra) {
  if (b->size + extra <= b->capacity) return;
  size_t capacity = b->capacity ? b->capacity : 1 << 16;
  while (capacity < b->size + extra) capacity *= 2;
  b->data = realloc(b->data, capacity);
  if (!b->data) {
    fprintf(stderr, "lectern-speech: out of memory\n");
    exit(2);
  }
  b->capacity = capacity;
}

static void append(buffer *b, const void *bytes, size_t n) {
  reserve(b, n);
  memcpy(b->data + b->size, bytes, n);
  b->size += n;
}

static buffer pcm, events, input, output;

static int read_exact(void *to, size_t n) { return fread(to, 1, n, stdin) == n; }

static int read_u32(uint32_t *v) {
  unsigned char b[4];
  if (!read_exact(b, 4)) return 0;
  *v = (uint32_t)b[0] | (uint32_t)b[1] << 8 | (uint32_t)b[2] << 16 | (uint32_t)b[3] << 24;
  return 1;
}

static int read_u16(uint16_t *v) {
  unsigned char b[2];
  if (!read_exact(b, 2)) return 0;
  *v = (uint16_t)(b[0] | b[1] << 8);
  return 1;
}

static void write_u32(uint32_t v) {
  unsigned char b[4] = {v & 0xff, (v >> 8) & 0xff, (v >> 16) & 0xff, (v >> 24) & 0xff};
  fwrite(b, 1, 4, stdout);
}

static void fail(const char *message) {
  fputc(1, stdout);
  write_u32((uint32_t)strlen(message));
  fputs(message, stdout);
  fflush(stdout);
}

/* The bytes of a request's payload: a length-prefixed string or block, into `input`. */
static int read_block(size_t n) {
  input.size = 0;
  reserve(&input, n + 1);
  if (n && !read_exact(input.data, n)) return 0;
  input.data[n] = 0;
  input.size = n;
  return 1;
}

static int on_audio(short *wav, int count, espeak_EVENT *list) {
  if (wav && count > 0) append(&pcm, wav, (size_t)count * sizeof(short));
  for (espeak_EVENT *e = list; e && e->type != espeakEVENT_LIST_TERMINATED; e++) {
    if (e->type != espeakEVENT_WORD && e->type != espeakEVENT_END) continue;
    int32_t fields[4] = {e->type, e->text_position, e->length, e->audio_position};
    append(&events, fields, sizeof fields);
  }
  return 0;
}

static char current_voice[128];
static int current_rate = -1;

static int synthesize(void) {
  uint16_t voice_length;
  uint32_t rate, text_length;
  char voice[128];
  if (!read_u16(&voice_length) || voice_length >= sizeof voice || !read_exact(voice, voice_length)) return 0;
  voice[voice_length] = 0;
  if (!read_u32(&rate) || !read_u32(&text_length) || !read_block(text_length)) return 0;
  if (strcmp(voice, current_voice) != 0) {
    if (espeak_SetVoiceByName(voice) != EE_OK) {
      char message[200];
      snprintf(message, sizeof message, "espeak has no voice '%s'", voice);
      fail(message);
      return 1;
    }
    strcpy(current_voice, voice);
    current_rate = -1;
  }
  if ((int)rate != current_rate) {
    espeak_SetParameter(espeakRATE, (int)rate, 0);
    current_rate = (int)rate;
  }
  pcm.size = 0;
  events.size = 0;
  espeak_ERROR status = espeak_Synth(input.data, input.size + 1, 0, POS_CHARACTER, 0, espeakCHARS_UTF8, NULL, NULL);
  if (status != EE_OK) {
    fail("espeak could not synthesize the text");
    return 1;
  }
  fputc(0, stdout);
  write_u32((uint32_t)(pcm.size / sizeof(short)));
  fwrite(pcm.data, 1, pcm.size, stdout);
  write_u32((uint32_t)(events.size / (4 * sizeof(int32_t))));
  fwrite(events.data, 1, events.size, stdout);
  fflush(stdout);
  return 1;
}

static int encode(void) {
  uint32_t in_rate, out_rate, kbps, count;
  if (!read_u32(&in_rate) || !read_u32(&out_rate) || !read_u32(&kbps) || !read_u32(&count)) return 0;
  if (!read_block((size_t)count * sizeof(short))) return 0;
  lame_global_flags *lame = lame_init();
  if (!lame) {
    fail("LAME could not start");
    return 1;
  }
  lame_set_in_samplerate(lame, (int)in_rate);
  lame_set_out_samplerate(lame, (int)out_rate);
  lame_set_num_channels(lame, 1);
  lame_set_mode(lame, MONO);
  lame_set_VBR(lame, vbr_off);
  lame_set_brate(lame, (int)kbps);
  lame_set_bWriteVbrTag(lame, 0);
  if (lame_init_params(lame) < 0) {
    lame_close(lame);
    fail("LAME refused the settings");
    return 1;
  }
  output.size = 0;
  const short *samples = (const short *)input.data;
  const int chunk = 8192;
  for (uint32_t offset = 0; offset < count; offset += chunk) {
    int n = (int)(count - offset < (uint32_t)chunk ? count - offset : (uint32_t)chunk);
    /* LAME's bound for one call: 1.25 * samples + 7200 bytes. */
    reserve(&output, (size_t)(1.25 * n) + 7200);
    int written = lame_encode_buffer(lame, samples + offset, NULL, n, output.data + output.size, (int)(output.capacity - output.size));
    if (written < 0) {
      lame_close(lame);
      fail("LAME could not encode the audio");
      return 1;
    }
    output.size += (size_t)written;
  }
  reserve(&output, 7200);
  int written = lame_encode_flush(lame, output.data + output.size, (int)(output.capacity - output.size));
  lame_close(lame);
  if (written < 0) {
    fail("LAME could not finish the stream");
    return 1;
  }
  output.size += (size_t)written;
  fputc(0, stdout);
  write_u32((uint32_t)output.size);
  fwrite(output.data, 1, output.size, stdout);
  fflush(stdout);
  return 1;
}

int main(int argc, char **argv) {
  if (argc > 1 && strcmp(argv[1], "--version") == 0) {
    const char *data_path = NULL;
    const char *espeak_version = espeak_Info(&data_path);
    printf("{\"espeak\":\"%s\",\"lame\":\"%s\"}\n", espeak_version, get_lame_version());
    return 0;
  }
  espeak_rate = espeak_Initialize(AUDIO_OUTPUT_SYNCHRONOUS, 100, NULL, espeakINITIALIZE_DONT_EXIT);
  if (espeak_rate <= 0) {
    fprintf(stderr, "lectern-speech: espeak-ng could not start (no espeak-ng-data?)\n");
    return 1;
  }
  espeak_SetSynthCallback(on_audio);
  for (;;) {
    int command = fgetc(stdin);
    if (command == EOF) return 0;
    int ok;
    if (command == 'S') ok = synthesize();
    else if (command == 'E') ok = encode();
    else if (command == 'R') {
      fputc(0, stdout);
      write_u32((uint32_t)espeak_rate);
      fflush(stdout);
      ok = 1;
    } else ok = 0;
    if (!ok) {
      fprintf(stderr, "lectern-speech: malformed request\n");
      return 1;
    }
  }
}
