/*
 * Runs Debian's EPUBCheck (/usr/share/java/epubcheck.jar, 4.2.6) on every file named, one after the other in one
 * JVM: the JVM and EPUBCheck's schemas load once instead of once a file. Each file's report is EPUBCheck's own
 * command-line output between "=== <file>" and "=== exit <code>" lines. Run it as
 *   java -Xss1024k -cp /usr/share/java/epubcheck.jar tests/server/epubcheckBatch.java a.epub b.epub …
 */
public class EpubcheckBatch {
  public static void main(String[] args) {
    // One stream, so each file's messages stay between its two marker lines.
    System.setErr(System.out);
    for (String file : args) {
      System.out.println("=== " + file);
      int code = new com.adobe.epubcheck.tool.EpubChecker().run(new String[] { file });
      System.out.println("=== exit " + code);
    }
  }
}
