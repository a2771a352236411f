import type { Migration } from './index';

/**
 * 28: a printed job's label bytes are kept once. A ZPL job prints the kept label's parts as the
 * service returned them (`zplPrintJobs`: the parts joined by a line break), so once the job is done
 * the retention (store/retentionRepo.ts, kind `sharedLabelBytes`) checks that the kept label holds
 * the very same bytes, deletes the job's copy from `print_job_bytes` and links the job to the label
 * here; `size` is the job's length for the queue screen. A reprint or a preview of the job reads the
 * label's parts (printJobsRepo.payload). A year at 2,000 labels a day kept the last 90 days' labels
 * twice: the kept labels and the print jobs' bytes, the same ZPL.
 *
 * The link goes with the kept label (ON DELETE CASCADE): the retention keeps a label a job inside
 * the labels window names, and a label fetched again does not replace one a job names
 * (labelsRepo.save), so a job keeps its bytes as long as before.
 */
export const m028JobLabelLinks: Migration = (db) => {
  db.exec(`
    CREATE TABLE print_job_labels (
      job_id INTEGER PRIMARY KEY REFERENCES print_jobs (id) ON DELETE CASCADE,
      document_id INTEGER NOT NULL REFERENCES label_documents (id) ON DELETE CASCADE,
      size INTEGER NOT NULL
    ) STRICT;
    CREATE INDEX print_job_labels_document ON print_job_labels (document_id);
  `);
};
