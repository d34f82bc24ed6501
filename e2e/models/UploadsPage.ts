/** 'My Uploads' (/uploads): the upload form and the list of a teacher's own texts. */
import type { Locator, Page } from '@playwright/test';

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
  async upload(name: string, text: string | Buffer, title?: string): Promise<void> {
    await this.fileInput.setInputFiles({ name, mimeType: name.endsWith('.md') ? 'text/markdown' : 'text/plain', buffer: Buffer.from(text) });
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
