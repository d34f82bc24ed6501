/**
 * 'My Uploads': a teacher's own texts, read as private publications. A form to upload a Word, EPUB, PDF, .txt or
 * .md file (choose or drop it) with the server's error messages and, after an upload, its notes on what was left
 * out; and the list with Read and Delete. The server owns every rule (who may upload, limits, reading the
 * formats, splitting); this view shows what it answers.
 */
import { useState, type FormEvent } from 'react';
import { Button, DropZone, FileTrigger, Form, Input, Label, Text, TextField } from 'react-aria-components';
import { Link, useLocation } from 'wouter';
import { ApiError } from '../../../api/errors';
import { LANGUAGES, type LanguageCode } from '../../../domain/languages';
import type { Upload } from '../../../domain/schemas';
import { StatusCard } from '../../components/StatusPage';
import { Spinner } from '../../components/Spinner';
import { buttonStyles, cardStyles, linkStyles } from '../../components/styles';
import { useDocumentTitle } from '../../hooks/useDocumentTitle';
import { signInPath } from '../../../domain/routes';
import { useDeleteUpload, useUploadList, useUploadText } from './useUploads';

/** What the file chooser offers: the formats the server reads, by name and by type. */
const ACCEPTED = [
  '.docx',
  '.epub',
  '.pdf',
  '.txt',
  '.md',
  '.markdown',
  'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  'application/epub+zip',
  'application/pdf',
  'text/plain',
  'text/markdown',
];

function messagesOf(error: unknown): string[] {
  if (error instanceof ApiError) return error.errors.length ? error.errors.map((e) => e.message) : [error.message];
  return [error instanceof Error ? error.message : String(error)];
}

const kb = (bytes: number) => `${Math.round(bytes / 1024)} KB`;
const mb = (bytes: number) => `${Math.round(bytes / (1024 * 1024))} MB`;

function UploadForm({ limits }: { limits: { maxBytes: number; maxDocumentBytes: number; maxPassages: number } }) {
  const [file, setFile] = useState<File | null>(null);
  const [title, setTitle] = useState('');
  const [language, setLanguage] = useState<LanguageCode>('en');
  const upload = useUploadText();

  const submit = (event: FormEvent<HTMLFormElement>) => {
    event.preventDefault();
    if (!file) return;
    upload.mutate(
      { file, title: title.trim() || undefined, language },
      {
        onSuccess: () => {
          setFile(null);
          setTitle('');
        },
      },
    );
  };
  const choose = (files: FileList | File[] | null) => {
    const first = files ? Array.from(files)[0] : undefined;
    if (first) {
      setFile(first);
      upload.reset();
    }
  };

  return (
    <Form onSubmit={submit} className={`${cardStyles} space-y-5 p-6`} aria-labelledby="upload-heading">
      <h2 id="upload-heading" className="text-xl font-semibold">
        Upload a text
      </h2>
      <p className="text-sm text-ink-muted">
        A Word document (.docx), EPUB (.epub) or PDF with text (.pdf) of up to {mb(limits.maxDocumentBytes)}, or a
        plain-text (.txt) or Markdown (.md) file of up to {kb(limits.maxBytes)}. The text is kept and pictures are left
        out; the document&apos;s headings (an EPUB&apos;s table of contents) become its sections. Paragraphs are grouped
        into passages of about 60–150 words; in a text file, <code>---</code> lines and <code>#</code> / <code>##</code>{' '}
        headings mark your own passages and chapters. At most {limits.maxPassages} passages. Only you and your class can
        read it.
      </p>
      <DropZone
        onDrop={async (event) => {
          const item = event.items.find((i) => i.kind === 'file');
          if (item && item.kind === 'file') choose([await item.getFile()]);
        }}
        className="flex flex-col items-center gap-3 rounded-xl border-2 border-dashed border-line-strong p-6 text-center data-[drop-target]:border-primary-700 data-[drop-target]:bg-primary-50"
      >
        <Text slot="label" className="text-sm text-ink-muted">
          {file ? (
            <>
              Selected: <strong className="text-ink">{file.name}</strong> ({kb(file.size) === '0 KB' ? `${file.size} bytes` : kb(file.size)})
            </>
          ) : (
            'Drop a file here, or'
          )}
        </Text>
        <FileTrigger acceptedFileTypes={ACCEPTED} onSelect={choose}>
          <Button className={buttonStyles.secondary}>{file ? 'Choose another file' : 'Choose a file'}</Button>
        </FileTrigger>
      </DropZone>
      <div className="grid gap-4 sm:grid-cols-2">
        <TextField value={title} onChange={setTitle} maxLength={200} className="flex flex-col gap-1.5">
          <Label className="text-sm font-medium">Title (optional)</Label>
          <Input className="rounded-lg border border-field px-3 py-2" placeholder="From the file name" />
        </TextField>
        <div className="flex flex-col gap-1.5">
          <label htmlFor="upload-language" className="text-sm font-medium">
            Language
          </label>
          <select
            id="upload-language"
            value={language}
            onChange={(e) => setLanguage(e.target.value as LanguageCode)}
            className="rounded-lg border border-field bg-surface px-3 py-2"
          >
            {LANGUAGES.map((l) => (
              <option key={l.code} value={l.code}>
                {l.name}
              </option>
            ))}
          </select>
        </div>
      </div>
      {upload.isError && (
        <div role="alert" className="rounded-lg border border-red-300 bg-red-50 px-4 py-3 text-sm text-red-900">
          <p className="font-medium">The upload did not work.</p>
          <ul className="mt-1 list-disc ps-5">
            {messagesOf(upload.error).map((m) => (
              <li key={m}>{m}</li>
            ))}
          </ul>
        </div>
      )}
      {upload.isSuccess && (
        <div role="status" className="text-sm text-primary-900">
          <p>
            Uploaded “{upload.data.title}”: {upload.data.passageCount} {upload.data.passageCount === 1 ? 'passage' : 'passages'}.{' '}
            <Link href={upload.data.readerUrl} className={linkStyles}>
              Read it now
            </Link>
          </p>
          {upload.data.notes?.length ? (
            <ul aria-label="Notes on the upload" className="mt-1 list-disc ps-5 text-ink-muted">
              {upload.data.notes.map((note) => (
                <li key={note.code}>{note.message}</li>
              ))}
            </ul>
          ) : null}
        </div>
      )}
      <Button type="submit" isDisabled={!file || upload.isPending} className={buttonStyles.primary}>
        {upload.isPending ? 'Uploading…' : 'Upload'}
      </Button>
    </Form>
  );
}

function UploadRow({ upload }: { upload: Upload }) {
  const remove = useDeleteUpload();
  const language = LANGUAGES.find((l) => l.code === upload.language)?.name ?? upload.language;
  return (
    <li className="flex flex-wrap items-center gap-x-6 gap-y-2 py-4">
      <div className="min-w-0 flex-1">
        <h3 className="font-semibold">{upload.title}</h3>
        <p className="text-sm text-ink-muted">
          {language} · {upload.passageCount} {upload.passageCount === 1 ? 'passage' : 'passages'} · {upload.totalWords} words · uploaded{' '}
          {new Date(upload.createdAt).toLocaleDateString()}
        </p>
        {remove.isError && (
          <p role="alert" className="text-sm text-red-800">
            {messagesOf(remove.error)[0]}
          </p>
        )}
      </div>
      <Link href={upload.readerUrl} className={buttonStyles.primary}>
        Read<span className="sr-only"> {upload.title}</span>
      </Link>
      <Button
        className={buttonStyles.secondary}
        isDisabled={remove.isPending}
        onPress={() => {
          if (window.confirm(`Delete “${upload.title}”? Your class will no longer be able to read it.`)) remove.mutate(upload.slug);
        }}
      >
        {remove.isPending ? 'Deleting…' : 'Delete'}
        <span className="sr-only"> {upload.title}</span>
      </Button>
    </li>
  );
}

export function UploadsScreen() {
  useDocumentTitle('My Uploads');
  const [path] = useLocation();
  const list = useUploadList();

  if (list.isPending) {
    return (
      <div className="grid min-h-[50vh] place-items-center">
        <Spinner label="Loading your uploads…" />
      </div>
    );
  }
  if (list.isError) {
    const signedOut = list.error instanceof ApiError && list.error.status === 401;
    return (
      <div>
        <StatusCard
          title="My Uploads"
          actions={
            signedOut ? (
              <Link href={signInPath(path)} className={buttonStyles.primary}>
                Sign In
              </Link>
            ) : undefined
          }
        >
          <p>{signedOut ? 'Sign in with your teacher account to upload your own texts.' : messagesOf(list.error)[0]}</p>
        </StatusCard>
      </div>
    );
  }

  const { items, canUpload, limits } = list.data;
  return (
    <div className="space-y-8">
      <header className="space-y-2">
        <h1 className="text-3xl font-semibold">My Uploads</h1>
        <p className="text-ink-muted">
          Your own texts, narrated and readable by you and your class. {items.length} of {limits.maxUploads} uploads used.
        </p>
      </header>
      {canUpload ? (
        <UploadForm limits={limits} />
      ) : (
        <p className={`${cardStyles} p-6 text-ink-muted`}>
          Uploading needs a teacher account with a school license that includes your own texts (USER_UPLOAD).
        </p>
      )}
      <section aria-labelledby="uploads-list-heading" className="space-y-2">
        <h2 id="uploads-list-heading" className="text-xl font-semibold">
          Your texts
        </h2>
        {items.length === 0 ? (
          <p className="text-ink-muted">No uploads yet.</p>
        ) : (
          <ul className="divide-y divide-line">
            {items.map((u) => (
              <UploadRow key={u.slug} upload={u} />
            ))}
          </ul>
        )}
      </section>
    </div>
  );
}

export default UploadsScreen;
