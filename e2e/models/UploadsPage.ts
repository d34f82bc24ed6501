/** 'My Uploads' (/uploads): the upload form and the list of a teacher's own texts. */
import type { Locator, Page } from '@playwright/test';

/** The types a browser gives the files the upload page takes. */
const FILE_TYPES: Record<string, string> = {
  '.txt': 'text/plain',
  '.md': 'text/markdown',
  '.docx': 'application/vnd.openxmlformats-officedocument.wordprocessingml.document',
  '.epub': 'application/epub+zip',
  '.pdf': 'application/pdf',
};

export class UploadsPage {
  readonly heading: Locator;
  readonly fileInput: Locator;
  readonly chooseButton: Locator;
  readonly titleField: Locator;
  readonly languageSelect: Locator;
  readonly uploadButton: Locator;
  readonly error: Locator;
  readonly success: Locator;
  readonly list: Locator;

  constructor(readonly page: Page) {
    this.heading = page.getByRole('heading', { name: 'My Uploads', level: 1 });
    this.fileInput = page.locator('input[type=file]');
    this.chooseButton = page.getByRole('button', { name: /Choose (a|another) file/ });
    this.titleField = page.getByRole('textbox', { name: 'Title (optional)' });
    this.languageSelect = page.getByRole('combobox', { name: 'Language' });
    this.uploadButton = page.getByRole('button', { name: 'Upload', exact: true });
    this.error = page.getByRole('alert');
    this.success = page.getByRole('status');
    this.list = page.getByRole('region', { name: 'Your texts' });
  }

  async goto(): Promise<void> {
    await this.page.goto('/uploads');
  }

  /** Choose a file (through the hidden input the FileTrigger opens) and press Upload. */
  /** Choose a file (its type from its name, as a browser gives it), give it a title, and press Upload. */
  async upload(name: string, content: string | Buffer | Uint8Array, title?: string): Promise<void> {
    const extension = name.slice(name.lastIndexOf('.')).toLowerCase();
    await this.fileInput.setInputFiles({ name, mimeType: FILE_TYPES[extension] ?? 'application/octet-stream', buffer: Buffer.from(content) });
    if (title !== undefined) await this.titleField.fill(title);
    await this.uploadButton.click();
  }

  readLink(title: string): Locator {
    return this.page.getByRole('link', { name: `Read ${title}` });
  }

  deleteButton(title: string): Locator {
    return this.page.getByRole('button', { name: `Delete ${title}` });
  }
}
