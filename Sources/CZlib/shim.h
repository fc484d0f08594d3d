// zlib (Debian's zlib1g-dev): the inflate of workbook packages (a .xlsx or .ods is a ZIP file).
#include <zlib.h>
