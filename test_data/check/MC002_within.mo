within Library.Missing; // <- MC002
package P
end P;
